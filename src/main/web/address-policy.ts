import ipaddr from 'ipaddr.js';

/** What each refused range is, in the words the user reads. */
const rangeNames: Record<string, string> = {
  loopback: 'a loopback address (this computer)',
  private: 'a private network address',
  uniqueLocal: 'a private network address',
  linkLocal: 'a link-local address (such as a cloud metadata service)',
  unspecified: 'an unspecified address',
  multicast: 'a multicast address',
  broadcast: 'a broadcast address',
  carrierGradeNat: 'a shared (carrier-grade NAT) address',
  reserved: 'a reserved address',
};

/**
 * Why Kasten does not connect to `address` unless private addresses are allowed, or null for a public
 * unicast address. An IPv4 address mapped into IPv6 (`::ffff:127.0.0.1`) is judged as the IPv4 one; any
 * range but plain unicast (6to4, Teredo, NAT64 and the like can carry a private address) is refused.
 */
export function refusedAddress(address: string): string | null {
  if (!ipaddr.isValid(address)) return 'not an IP address';
  const range = ipaddr.process(address).range();
  if (range === 'unicast') return null;
  return rangeNames[range] ?? `an address of the range “${range}”`;
}
