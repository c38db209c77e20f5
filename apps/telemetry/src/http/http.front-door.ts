import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { IngestEndpoint } from './http.ingest.js';

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Fastify's `serverFactory`: the HTTP server whose requests go to the ingest endpoint for the two ingest
 * routes and to Fastify for everything else. While stopping, ingest requests go to Fastify too, which refuses
 * new work with 503 as it does for every route.
 */
export function frontDoor(endpoint: IngestEndpoint): (fastify: Listener) => Server {
  return (fastify) => {
    const server = createServer((req, res) => {
      const route = endpoint.closing ? undefined : endpoint.routeOf(req);
      if (route) endpoint.serve(route, req, res);
      else fastify(req, res);
    });
    // The settings Fastify gives the servers it creates itself.
    server.keepAliveTimeout = 72_000;
    server.requestTimeout = 0;
    server.setTimeout(0);
    return server;
  };
}
