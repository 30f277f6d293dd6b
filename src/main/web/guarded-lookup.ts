import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import { refusedAddress } from './address-policy';

/** One resolved address of a host name. */
export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name (tests give their own: a name that changes its answer between lookups). */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: HostResolver = (hostname) => dnsLookup(hostname, { all: true });

/** A connection refused by the address guard: its message names the host, the address and why. */
export class AddressRefused extends Error {
  readonly code = 'EADDRESSREFUSED';
}

/** The guard's words for an address it will not connect to. */
export function refusalOf(host: string, address: string, reason: string): AddressRefused {
  const named = host === address ? address : `${host} (${address})`;
  return new AddressRefused(
    `${named} is ${reason}; Kasten does not fetch pages there unless private addresses are allowed in Settings.`,
  );
}

/**
 * A `lookup` for `http.request`: resolves the host once, checks the address the connection will use and
 * hands exactly that address to the socket, so a name cannot pass the check with one answer and connect
 * with another (DNS rebinding). `allowPrivate` lets loopback and private addresses through.
 */
export function guardedLookup(
  resolve: HostResolver,
  allowPrivate: boolean,
  refused: (address: string) => string | null = refusedAddress,
): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const first = addresses[0];
        if (!first) return callback(new Error(`${hostname} has no address.`), '', 4);
        const reason = allowPrivate ? null : refused(first.address);
        if (reason) return callback(refusalOf(hostname, first.address, reason), '', 4);
        // With `all` (Node's happy eyeballs) the socket still gets the one address that was checked.
        if (options.all) return (callback as AllCallback)(null, [first]);
        callback(null, first.address, first.family);
      },
      (error: Error) => callback(error as NodeJS.ErrnoException, '', 4),
    );
  };
}

type AllCallback = (error: NodeJS.ErrnoException | null, addresses: ResolvedAddress[]) => void;
