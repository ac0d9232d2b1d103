import { federatedAppConfig } from '@ledgerline/ui/webpack/federated-app.config.mjs';

export default federatedAppConfig({
  name: 'shell',
  root: import.meta.dirname,
  publicPath: '/',
  entry: './src/main.ts',
  htmlTemplate: './src/index.html',
});
