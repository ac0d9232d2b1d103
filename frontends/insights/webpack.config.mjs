import { federatedAppConfig } from '@ledgerline/ui/webpack/federated-app.config.mjs';

export default federatedAppConfig({
  name: 'insights',
  root: import.meta.dirname,
  // Served by the gateway under /remotes/insights/; chunks resolve next to the manifest.
  publicPath: 'auto',
  exposes: { './register': './src/register.tsx' },
  routes: './src/routes.ts',
});
