// Regenerates packages/contract/openapi.json from the route table (`npm run contract:openapi`).
// A test fails when the committed file and the table disagree.
import { readFileSync, writeFileSync } from 'node:fs';
import { monitoringOpenApi, routes } from '@svc/contract';

export const openApiPath = new URL('../packages/contract/openapi.json', import.meta.url);

export function renderOpenApi(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return `${JSON.stringify(monitoringOpenApi(routes, pkg.version), null, 2)}\n`;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop() ?? '')) {
  writeFileSync(openApiPath, renderOpenApi());
  console.log(`wrote ${openApiPath.pathname}`);
}
