import { ConfigError, loadConfig } from '@ledgerline/kit/config.ts';
import { createLogger } from '@ledgerline/kit/logger.ts';
import { runBackupCommand } from './backup/backup-cli.ts';
import { DataDirInUseError } from './data-dir-lock.ts';
import { platformConfigSpec } from './platform.config.ts';
import { startPortal } from './portal.ts';
import { listTargets, UnknownTargetError } from './targets.ts';

/**
 * The one entry point: `--target=all` (default) runs every service and the gateway in
 * this process; `--target=identity` (or `gateway`, or a comma list) runs only those.
 * `backup --out <file>` and `restore <file>` back up and restore the embedded installation.
 */
const args = process.argv.slice(2);
if (args.includes('--list-targets')) {
  console.log(listTargets().join('\n'));
  process.exit(0);
}
if (args[0] === 'backup' || args[0] === 'restore') {
  process.exit(await runBackupCommand(args).catch((err: unknown) => {
    console.error((err as Error).message);
    return 1;
  }));
}
const logger = createLogger('portal');

try {
  const target = args.find((a) => a.startsWith('--target='))?.slice('--target='.length) ?? loadConfig({ target: platformConfigSpec.target }).target;
  const portal = await startPortal({ target, logger });
  if (portal.gatewayUrl) {
    const port = new URL(portal.gatewayUrl).port;
    console.log(`\n  Ledgerline is running: open http://localhost:${port}/\n  Platform admin console: http://localhost:${port}/admin/login\n  API docs: http://localhost:${port}/api/docs\n`);
  }
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    portal.stop().then(() => process.exit(0), (err: unknown) => { logger.error({ err }, 'shutdown failed'); process.exit(1); });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
} catch (err) {
  if (err instanceof UnknownTargetError || err instanceof ConfigError || err instanceof DataDirInUseError) {
    console.error(err.message);
    process.exit(2);
  }
  logger.fatal({ err }, 'failed to start');
  process.exit(1);
}
