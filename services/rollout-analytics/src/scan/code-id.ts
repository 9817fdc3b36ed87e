// Set by the build (scripts/build.ts) to a hash of the sources the bundle is made of.
declare const BUILD_CODE_ID: string | undefined;

/**
 * Identity of the code that reads rollouts: the build's hash of its sources, or `source` when run
 * from the TypeScript sources. A cached per-file result made by other code is read again, so a
 * change to how files are read or folded never leaves old results in a report, whether or not it
 * changed a format version.
 */
export const CODE_ID: string = typeof BUILD_CODE_ID === "string" ? BUILD_CODE_ID : "source";
