/** The freephone number used when site settings (which carry the real one) could not be loaded. */
export const FALLBACK_PHONE = '0800 123 4567';
