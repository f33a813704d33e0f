declare module 'virtual:signed-in-code' {
  /**
   * The scripts (`assets/name-hash.js`, from the build's base) of the page a customer lands on after
   * signing in, and of the sign-in callback page on the way there, that the sign-in code pages fetch ahead
   * (decision 033). Written by the build (apps/web/vite.config.ts, scripts/page-chunks.mjs); empty in
   * development and tests.
   */
  const files: readonly string[];
  export default files;
}
