export { builtinFuncs } from './builtins.js';
export { ExecError, FuncError, TemplateError } from './errors.js';
export { htmlEscape, jsEscape, pathEscape, queryEscape } from './escape.js';
export { sprint, sprintln } from './fmt/print.js';
export { sprintf } from './fmt/printf.js';
export { type FuncMap, type FuncValue, type GoFunc, goFunc, type ParamType } from './funcs.js';
export { type ParseOptions, parse, Template } from './template.js';
export { GoInt, goInt, type IntType } from './values.js';
export { jsonEscape, title, toLower, toUpper, webhookFuncs } from './webhook-funcs.js';
