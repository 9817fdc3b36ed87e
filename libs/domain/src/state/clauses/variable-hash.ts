/**
 * 32-bit FNV-1a hash of a variable's UTF-16 code units, as a small integer: the persistent maps
 * hash such a number in a few operations, where a string key costs a walk over its characters
 * on every lookup.
 */
export function variableHash(variable: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < variable.length; i++) h = Math.imul(h ^ variable.charCodeAt(i), 0x01000193);
  return h | 0;
}
