// Style sheets are handled by webpack's css loaders; to TypeScript they are side effects.
declare module '*.css';
