/** Splits `host:port` (IPv6 hosts in brackets) into its parts. */
export function splitHostPort(address: string): { host: string; port: number } {
  const at = address.lastIndexOf(":");
  const host = address.slice(0, at).replace(/^\[(.*)\]$/, "$1");
  return { host, port: Number(address.slice(at + 1)) };
}
