// One jest run covers every workspace. Sources are TypeScript run as native ESM
// (the same modules Node 24 runs by type stripping), transformed by swc.
const swc = ['@swc/jest', {
  jsc: { target: 'es2023', parser: { syntax: 'typescript', tsx: true }, transform: { react: { runtime: 'automatic' } } },
  module: { type: 'es6' },
}];

export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts', '.tsx'],
  transform: { '^.+\\.(ts|tsx)$': swc },
  testMatch: ['<rootDir>/{services,gateway,frontends}/*/{src,test}/**/*.test.{ts,tsx}', '<rootDir>/gateway/{src,test}/**/*.test.{ts,tsx}', '<rootDir>/charts/**/*.test.ts', '<rootDir>/loadtests/test/**/*.test.ts', '<rootDir>/scripts/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  testTimeout: 60_000,
};
