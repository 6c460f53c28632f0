/**
 * The one door for HTTP calls the server makes (issue 43; decision 0050): webhook deliveries, integration clients'
 * key sets, Google's key set, the fax gateway, object storage. An address a tenant's admin or an anonymous caller can
 * name must not point the server inside its own network, so every call:
 *
 * - takes http(s) only, and never follows a redirect (a 3xx is the answer);
 * - reads the host as the WHATWG URL parser does, which turns every IPv4 spelling (2130706433, 0x7f000001,
 *   0177.0.0.1, 127.1) and IDNA look-alikes (circled 'localhost') into the one canonical form before it is checked;
 * - resolves a name itself, refuses the call when any answer is loopback, private, link-local, unique-local,
 *   carrier-grade NAT, multicast, broadcast, unspecified, reserved, or an IPv6 form that carries an IPv4 address
 *   (IPv4-mapped, NAT64, 6to4, Teredo), and then connects to exactly the address it checked: there is no second
 *   lookup for a name to change its answer in between (DNS rebinding);
 * - is bounded in time (connect and whole call) and, where the body is read, in size.
 *
 * Networks in `allowedNetworks` (OUTBOUND_ALLOWED_NETWORKS) pass: a test's receiver on 127.0.0.1, the demo's, or an
 * operator's fax gateway on its own network. Nothing else does, in every environment.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import ipaddr from 'ipaddr.js';
import { Agent, type RequestInit, type Response, fetch as undiciFetch } from 'undici';

/** Why a call was not made: the host, and the kind of address it is (never a connection attempt). */
export class OutboundRefusedError extends Error {
  override name = 'OutboundRefusedError';
  constructor(
    readonly host: string,
    readonly reason: string,
  ) {
    super(`Outbound call to ${host} refused: ${reason} address.`);
  }
}

/** A resolver: every address of a name (the default asks the system's resolver, as a connection would). */
export type Resolve = (hostname: string) => Promise<{ address: string; family: number }[]>;

const systemResolve: Resolve = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
  );

type Network = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** Parses `10.0.0.0/8,::1/128` (a bare address is its own /32 or /128); throws naming the entry that is not one. */
export function parseNetworks(list: string): Network[] {
  return list
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      try {
        if (entry.includes('/')) return ipaddr.parseCIDR(entry);
        const address = ipaddr.parse(entry);
        return [address, address.kind() === 'ipv4' ? 32 : 128] as Network;
      } catch {
        throw new Error(`'${entry}' is not an address or a network such as 10.0.0.0/8`);
      }
    });
}

/** The address as IPv4 when it is an IPv4-mapped IPv6 one (::ffff:127.0.0.1 is 127.0.0.1). */
function canonical(address: string): ipaddr.IPv4 | ipaddr.IPv6 {
  const parsed = ipaddr.parse(address);
  return parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()
    ? (parsed as ipaddr.IPv6).toIPv4Address()
    : parsed;
}

/**
 * Why the server may not call this address (its range: 'loopback', 'private', 'linkLocal', ...), or null when it may:
 * a public unicast address, or one inside an allowed network.
 */
export function addressProblem(address: string, allowed: readonly Network[]): string | null {
  if (!ipaddr.isValid(address)) return 'unreadable';
  const parsed = canonical(address);
  if (allowed.some(([network, bits]) => network.kind() === parsed.kind() && parsed.match(network, bits))) return null;
  const range = parsed.range();
  return range === 'unicast' ? null : range;
}

/** One message for every kind of internal address: which kind it was would help someone map the network. */
export const INTERNAL_ADDRESS_MESSAGE = 'This address is inside a private network. Use the receiver’s public address.';

const isIpLiteral = (hostname: string) => ipaddr.isValid(hostname.replace(/^\[|\]$/g, ''));

export interface GuardedInit extends RequestInit {
  /** Read at most this many bytes of the answer (the body is then buffered); more is an error. */
  maxBodyBytes?: number;
}

export interface OutboundGuard {
  /** `fetch` through the guard: refused addresses throw OutboundRefusedError before any connection. */
  fetch(url: string | URL, init?: GuardedInit): Promise<Response>;
  /**
   * What is wrong with an address someone registers, as the message to show, without resolving it (a name is checked
   * each time it is called): not http(s), credentials in it, or a host that is an internal address or a 'localhost'
   * name however it is written. Null when fine.
   */
  urlProblem(url: string): string | null;
  close(): Promise<void>;
}

export function createOutboundGuard(options: {
  allowedNetworks: readonly Network[];
  /** The resolver (tests give names their own answers without asking DNS). */
  resolve?: Resolve;
  connectTimeoutMs?: number;
}): OutboundGuard {
  const allowed = options.allowedNetworks;
  const resolve = options.resolve ?? systemResolve;

  /** net.connect's `lookup`: our resolver, every answer checked, the checked addresses the only ones returned. */
  function guardedLookup(
    hostname: string,
    lookupOptions: { all?: boolean },
    callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
  ) {
    resolve(hostname).then(
      (addresses) => {
        if (addresses.length === 0) return callback(new Error(`${hostname} has no address.`), []);
        for (const { address } of addresses) {
          const problem = addressProblem(address, allowed);
          if (problem) return callback(new OutboundRefusedError(hostname, problem), []);
        }
        if (lookupOptions.all) return callback(null, addresses);
        const [first] = addresses as [LookupAddress];
        return callback(null, first.address, first.family);
      },
      (error: Error) => callback(error, []),
    );
  }

  const agent = new Agent({
    connect: { lookup: guardedLookup as never, timeout: options.connectTimeoutMs ?? 5_000 },
    // A webhook receiver or a key set is called now and then: no pool of idle sockets held to it.
    keepAliveTimeout: 1_000,
  });

  function urlProblem(text: string): string | null {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return 'Enter a full address such as https://pharmacy.example.com/hooks.';
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'The address must start with https://.';
    if (url.username || url.password) return 'Leave user names and passwords out of the address.';
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const name = host.replace(/\.$/, '').toLowerCase();
    const problem = isIpLiteral(url.hostname)
      ? addressProblem(host, allowed)
      : name === 'localhost' || name.endsWith('.localhost')
        ? addressProblem('127.0.0.1', allowed)
        : null;
    return problem ? INTERNAL_ADDRESS_MESSAGE : null;
  }

  async function guardedFetch(input: string | URL, init: GuardedInit = {}): Promise<Response> {
    const url = new URL(input);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new OutboundRefusedError(url.protocol, 'not http(s)');
    // A literal address is connected to without a lookup, so it is checked here.
    if (isIpLiteral(url.hostname)) {
      const problem = addressProblem(url.hostname.replace(/^\[|\]$/g, ''), allowed);
      if (problem) throw new OutboundRefusedError(url.hostname, problem);
    }
    const { maxBodyBytes, ...rest } = init;
    let response: Response;
    try {
      response = await undiciFetch(url, { ...rest, redirect: 'manual', dispatcher: agent });
    } catch (error) {
      // undici wraps what the connection threw ("fetch failed"); the refusal is the reason worth keeping.
      const cause = (error as { cause?: unknown }).cause;
      throw cause instanceof OutboundRefusedError ? cause : error;
    }
    if (maxBodyBytes === undefined) return response;
    const body = await readCapped(response, maxBodyBytes);
    return new (response.constructor as typeof Response)(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  }

  return { fetch: guardedFetch, urlProblem, close: () => agent.close() };
}

/** The body, or an error once it passes `max` bytes (the rest is not read). */
async function readCapped(response: Response, max: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (response.body) {
    for await (const chunk of response.body) {
      size += (chunk as Uint8Array).byteLength;
      if (size > max) {
        await response.body.cancel().catch(() => undefined);
        throw new Error(`The answer is larger than ${max} bytes.`);
      }
      chunks.push(chunk as Uint8Array);
    }
  }
  return Buffer.concat(chunks);
}
