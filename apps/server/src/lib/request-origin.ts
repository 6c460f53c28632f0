import type { FastifyRequest } from 'fastify';

/** The host name, protocol and (non-default) port a request came to: which brand, and which passkeys (issue 48). */
export function requestOrigin(request: FastifyRequest): { hostname: string; protocol: string; port: string } {
  const host = request.host ?? '';
  const [hostname = '', rawPort = ''] = host.startsWith('[') ? [host, ''] : host.split(':');
  const defaultPort = request.protocol === 'https' ? '443' : '80';
  return { hostname, protocol: request.protocol, port: rawPort === defaultPort ? '' : rawPort };
}

/** The page origin and WebAuthn relying-party id of the request's host. */
export function passkeySiteOfRequest(request: FastifyRequest): { origin: string; rpID: string } {
  const { hostname, protocol, port } = requestOrigin(request);
  return { origin: `${protocol}://${hostname}${port ? `:${port}` : ''}`, rpID: hostname };
}
