import { federatedAppConfig } from '@ledgerline/ui/webpack/federated-app.config.mjs';

export default federatedAppConfig({
  name: 'billing',
  root: import.meta.dirname,
  // Served by the gateway under /remotes/billing/; chunks resolve next to the manifest.
  publicPath: 'auto',
  exposes: { './register': './src/register.tsx' },
  routes: './src/routes.ts',
});
