export * from './call';
export * from './page-init';
