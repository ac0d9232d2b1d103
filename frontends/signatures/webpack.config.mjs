import { federatedAppConfig } from '@ledgerline/ui/webpack/federated-app.config.mjs';

export default federatedAppConfig({
  name: 'signatures',
  root: import.meta.dirname,
  // Served by the gateway under /remotes/signatures/; chunks resolve next to the manifest.
  publicPath: 'auto',
  exposes: { './register': './src/register.tsx' },
  routes: './src/routes.ts',
});
