/** Boundaries from DESIGN.md, checked by `npm run boundaries` (part of `npm test`). */
module.exports = {
  forbidden: [
    {
      name: 'contract-is-pure',
      comment: 'The contract imports nothing from apps, the platform or Node: server, agent and web all import it.',
      severity: 'error',
      from: { path: '^packages/contract/src' },
      to: { path: '^(apps/|packages/(?!contract/))', dependencyTypesNot: ['npm'] },
    },
    {
      name: 'contract-no-node-builtins',
      severity: 'error',
      from: { path: '^packages/contract/src', pathNot: '\\.test\\.ts$' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'packages-never-import-apps',
      severity: 'error',
      from: { path: '^packages/' },
      to: { path: '^apps/' },
    },
    {
      name: 'apps-are-separate',
      comment: 'Apps share code through packages/, never by importing each other.',
      severity: 'error',
      from: { path: '^apps/([^/]+)/' },
      to: { path: '^apps/', pathNot: '^apps/$1/' },
    },
    {
      name: 'areas-meet-through-index',
      comment: "An area reaches another area only through that area's index.ts.",
      severity: 'error',
      from: { path: '^apps/server/src/areas/([^/]+)/' },
      to: {
        path: '^apps/server/src/areas/[^/]+/.+',
        pathNot: ['^apps/server/src/areas/$1/', '^apps/server/src/areas/[^/]+/index\\.ts$'],
      },
    },
    {
      name: 'store-only-in-own-area',
      severity: 'error',
      from: { path: '^apps/server/src/areas/([^/]+)/' },
      to: { path: '\\.store\\.ts$', pathNot: '^apps/server/src/areas/$1/' },
    },
    {
      name: 'store-not-outside-areas',
      severity: 'error',
      from: { pathNot: '^apps/server/src/areas/' },
      to: { path: '^apps/server/src/areas/.+\\.store\\.ts$' },
    },
    {
      name: 'collectors-never-import-areas',
      severity: 'error',
      from: { path: '^apps/server/src/collectors/' },
      to: { path: '^apps/server/src/areas/' },
    },
    {
      name: 'platform-has-no-domain',
      comment: 'platform/ is cross-cutting: it must not depend on areas, collectors or state.',
      severity: 'error',
      from: { path: '^apps/[^/]+/src/platform/' },
      to: { path: '^apps/[^/]+/src/(areas|collectors|state)/' },
    },
    {
      name: 'no-circular',
      comment:
        'gotemplate is exempt: its lexer states and its evaluator/caller are mutually recursive by nature and split across files only for size.',
      severity: 'error',
      from: { path: '^(apps|packages)/', pathNot: '^packages/gotemplate/src/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
