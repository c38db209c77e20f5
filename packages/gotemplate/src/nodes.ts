// Parse tree nodes of Go's text/template/parse. String() output matters: Go puts it in errors.
import { quote } from './quote.js';

export interface Tree {
  name: string;
  parseName: string;
  text: string;
  root: ListNode | null;
}

interface Base {
  pos: number;
  tree: Tree;
}

export interface TextNode extends Base {
  type: 'text';
  text: string;
}
export interface CommentNode extends Base {
  type: 'comment';
  text: string;
}
export interface ListNode extends Base {
  type: 'list';
  nodes: Node[];
}
export interface PipeNode extends Base {
  type: 'pipe';
  line: number;
  isAssign: boolean;
  decl: VariableNode[];
  cmds: CommandNode[];
}
export interface ActionNode extends Base {
  type: 'action';
  line: number;
  pipe: PipeNode;
}
export interface CommandNode extends Base {
  type: 'command';
  args: Node[];
}
export interface IdentifierNode extends Base {
  type: 'identifier';
  ident: string;
}
export interface VariableNode extends Base {
  type: 'variable';
  ident: string[];
}
export interface DotNode extends Base {
  type: 'dot';
}
export interface NilNode extends Base {
  type: 'nil';
}
export interface FieldNode extends Base {
  type: 'field';
  ident: string[];
}
export interface ChainNode extends Base {
  type: 'chain';
  node: Node;
  field: string[];
}
export interface BoolNode extends Base {
  type: 'bool';
  value: boolean;
}
export interface NumberNode extends Base {
  type: 'number';
  isInt: boolean;
  isUint: boolean;
  isFloat: boolean;
  isComplex: boolean;
  int: bigint;
  uint: bigint;
  float: number;
  text: string;
}
export interface StringNode extends Base {
  type: 'string';
  quoted: string;
  text: string;
}
export interface EndNode extends Base {
  type: 'end';
}
export interface ElseNode extends Base {
  type: 'else';
  line: number;
}
export interface BranchNode extends Base {
  type: 'if' | 'range' | 'with';
  line: number;
  pipe: PipeNode;
  list: ListNode;
  elseList: ListNode | null;
}
export interface BreakNode extends Base {
  type: 'break';
  line: number;
}
export interface ContinueNode extends Base {
  type: 'continue';
  line: number;
}
export interface TemplateNode extends Base {
  type: 'template';
  line: number;
  name: string;
  pipe: PipeNode | null;
}

export type Node =
  | TextNode
  | CommentNode
  | ListNode
  | PipeNode
  | ActionNode
  | CommandNode
  | IdentifierNode
  | VariableNode
  | DotNode
  | NilNode
  | FieldNode
  | ChainNode
  | BoolNode
  | NumberNode
  | StringNode
  | EndNode
  | ElseNode
  | BranchNode
  | BreakNode
  | ContinueNode
  | TemplateNode;

function pipeString(p: PipeNode): string {
  let s = '';
  if (p.decl.length > 0) s = `${p.decl.map(nodeString).join(', ')} := `;
  return s + p.cmds.map(nodeString).join(' | ');
}

/** Node.String() exactly as Go writes it. */
export function nodeString(n: Node): string {
  switch (n.type) {
    case 'text':
      return n.text;
    case 'comment':
      return `{{${n.text}}}`;
    case 'list':
      return n.nodes.map(nodeString).join('');
    case 'pipe':
      return pipeString(n);
    case 'action':
      return `{{${pipeString(n.pipe)}}}`;
    case 'command':
      return n.args.map((a) => (a.type === 'pipe' ? `(${pipeString(a)})` : nodeString(a))).join(' ');
    case 'identifier':
      return n.ident;
    case 'variable':
      return n.ident.join('.');
    case 'dot':
      return '.';
    case 'nil':
      return 'nil';
    case 'field':
      return n.ident.map((id) => `.${id}`).join('');
    case 'chain': {
      const head = n.node.type === 'pipe' ? `(${pipeString(n.node)})` : nodeString(n.node);
      return head + n.field.map((f) => `.${f}`).join('');
    }
    case 'bool':
      return n.value ? 'true' : 'false';
    case 'number':
      return n.text;
    case 'string':
      return n.quoted;
    case 'end':
      return '{{end}}';
    case 'else':
      return '{{else}}';
    case 'if':
    case 'range':
    case 'with': {
      const tail = n.elseList ? `{{else}}${nodeString(n.elseList)}` : '';
      return `{{${n.type} ${pipeString(n.pipe)}}}${nodeString(n.list)}${tail}{{end}}`;
    }
    case 'break':
      return '{{break}}';
    case 'continue':
      return '{{continue}}';
    case 'template':
      return `{{template ${quote(n.name)}${n.pipe ? ` ${pipeString(n.pipe)}` : ''}}}`;
  }
}
