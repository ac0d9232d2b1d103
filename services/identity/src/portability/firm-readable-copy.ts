import { Readable } from 'node:stream';
import type { Response } from 'express';
import { Unavailable } from '@ledgerline/kit/errors.ts';
import { contentDisposition } from '@ledgerline/kit/http/content-disposition.ts';
import { ZipWriter } from '@ledgerline/kit/http/zip-writer.ts';
import type { Logger } from '@ledgerline/kit/logger.ts';
import { INTERNAL_PORTABILITY_PATH } from '@ledgerline/kit/portability/portability.router.ts';
import { readTar } from '@ledgerline/kit/portability/tar-archive.ts';
import type { ServicePeer } from '@ledgerline/kit/service-module.ts';
import { dateIn } from '@ledgerline/contracts/firm-time-zone.ts';
import type { Company } from '@ledgerline/contracts/identity.contracts.ts';

/**
 * A firm's readable copy (issue 44), beside the archive made for re-import: one ZIP of what
 * each service writes for people (ServicePortability.readable: `users.csv`, `clients.csv`,
 * `report-types.csv`, `tasks.csv`, `documents/<client>/…`) and a README saying what it is.
 * A download of its own, streamed as it is made (nothing stored, no job): the re-import
 * archive and its manifest stay as they are, and the copy is never imported. Only identity
 * assembles; it never reads another service's tables.
 */
export class FirmReadableCopy {
  readonly #peers: () => ServicePeer[];
  readonly #systemToken: () => Promise<string>;
  readonly #logger: Logger;

  constructor(deps: { peers: () => ServicePeer[]; systemToken: () => Promise<string>; logger: Logger }) {
    this.#peers = deps.peers;
    this.#systemToken = deps.systemToken;
    this.#logger = deps.logger;
  }

  /** `revealTaxIds`: the caller may see whole tax IDs; otherwise every part masks them (the last four). */
  async send(company: Company, res: Response, options: { revealTaxIds: boolean }): Promise<void> {
    const token = await this.#systemToken();
    const now = new Date();
    const part = async (peer: ServicePeer) => {
      const query = new URLSearchParams({
        schemaName: company.schemaName, shortName: company.shortName, timeZone: company.timeZone, revealTaxIds: String(options.revealTaxIds),
      });
      const response = await fetch(`${peer.url}${INTERNAL_PORTABILITY_PATH}/readable?${query}`, { headers: { authorization: `Bearer ${token}` } })
        .catch(() => { throw new Unavailable(`The ${peer.service} service is unavailable; try again shortly.`); });
      if (!response.ok || !response.body) throw new Unavailable(`The ${peer.service} service could not write its part: ${response.status}`);
      return readTar(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>));
    };
    const peers = this.#peers();
    // The first part is asked for before anything is sent: an unavailable service is still a clear 503.
    let next = await part(peers[0]!);
    res.setHeader('content-type', 'application/zip');
    res.setHeader('content-disposition', contentDisposition('attachment', `${company.shortName}-${dateIn(now, company.timeZone)}-readable.zip`));
    const zip = new ZipWriter(res);
    try {
      const readme = Buffer.from(readmeText(company, now));
      await zip.add('README.txt', readme, now);
      for (const [index, peer] of peers.entries()) {
        if (index > 0) next = await part(peer);
        for await (const entry of next) await zip.add(entry.name, entry.body, now, entry.size);
      }
      await zip.finish();
      res.end();
    } catch (err) {
      this.#logger.error({ err, firm: company.shortName }, 'readable copy failed');
      // Headers are gone: a cut-short ZIP (no central directory) is how the reader learns it failed.
      res.destroy(err as Error);
    }
  }
}

function readmeText(company: Company, now: Date): string {
  return [
    `${company.name}: a readable copy of the firm, made ${dateIn(now, company.timeZone)} (${company.timeZone}).`,
    '',
    'users.csv          the firm\'s users, their roles and the clients and report types they reach (ids)',
    'clients.csv        the clients (tax IDs whole only for a role that may reveal them, else the last four)',
    'report-types.csv   the report types',
    'tasks.csv          the tasks',
    'documents/         a folder per client: reports by tax year and report type, company documents,',
    '                   and index.csv naming each file\'s tax year, period and request item;',
    '                   documents/Firm documents/ holds the firm\'s own',
    '',
    'Dates and times are the firm\'s. This copy is for reading: to move the firm to another',
    'Ledgerline installation, use the export archive (.tar) instead.',
    '',
  ].join('\r\n');
}
