export interface ManifestChunk {
  file: string;
  src?: string;
  name?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
export type Manifest = Record<string, ManifestChunk>;
export interface PageFiles {
  js: string[];
  css: string[];
}

export const webRoot: string;
export const manifestFile: string;
export const pageChunksFile: string;
export function staticClosure(manifest: Manifest, key: string, into?: Set<string>): Set<string>;
export function pageTypeModules(manifest: Manifest): Map<string, string>;
export function blockTypeModules(manifest: Manifest): Map<string, string>;
export function startupKey(manifest: Manifest): string | undefined;
export function entryKey(manifest: Manifest): string | undefined;
export function filesOf(manifest: Manifest, keys: Iterable<string>): PageFiles;
export const EXPERIMENTS: '@experiments';
export const STARTUP: '@startup';
export function pageChunks(manifest: Manifest): Record<string, PageFiles>;
export const onDemandShellChunks: Readonly<Record<string, string>>;
export function shellChunkKeys(manifest: Manifest): { firstRender: string[]; onDemand: string[] };
export interface SignedInPage {
  type: string;
  /** The block types its content names. */
  blocks: readonly string[];
}
export function signedInPageKeys(manifest: Manifest, page: SignedInPage): Set<string>;
export function signedInPrefetch(manifest: Manifest, pages: readonly SignedInPage[]): string[];
export function signedInWay(contentRoot?: string): (SignedInPage & { url: string })[];
