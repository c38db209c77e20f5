import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { AppError } from '@svc/platform';

/** Files of swagger-ui-dist served under /api/docs/, plus our own initializer (no inline script). */
const assets: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>svc API reference</title>
<link rel="stylesheet" href="/api/docs/swagger-ui.css">
<link rel="icon" href="/api/docs/favicon-32x32.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/api/docs/swagger-ui-bundle.js"></script>
<script src="/api/docs/init.js"></script>
</body>
</html>
`;

const init = `window.ui = SwaggerUIBundle({ url: '/api/openapi.json', dom_id: '#swagger-ui', deepLinking: true,
  persistAuthorization: true, tryItOutEnabled: true });
`;

export function createDocs() {
  const dir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const cache = new Map<string, Buffer>();
  return {
    page: () => page,
    asset(name: string): { type: string; bytes: Uint8Array } {
      if (name === 'init.js') return { type: 'text/javascript; charset=utf-8', bytes: Buffer.from(init) };
      const type = assets[name];
      if (!type) throw new AppError('not_found', `The API reference has no file named ${name}.`);
      let bytes = cache.get(name);
      if (!bytes) {
        bytes = readFileSync(join(dir, name));
        cache.set(name, bytes);
      }
      return { type, bytes };
    },
  };
}
