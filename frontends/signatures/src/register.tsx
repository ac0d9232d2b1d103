import { lazyPage } from '@ledgerline/ui/lazy-page.tsx';
import { declaredRoutes, type RegisterRemote } from '@ledgerline/ui/shell-contract.ts';
import { ROUTES } from './routes.ts';

const styles = () => import('./signatures.css');

/** Exposed as './register': the staff Signatures page. */
const register: RegisterRemote = (shell) => {
  shell.addRoutes(declaredRoutes(ROUTES, {
    signatures: lazyPage(() => import('./signatures.page.tsx'), 'SignaturesPage', styles),
  }));
};

export default register;
