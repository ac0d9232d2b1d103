import { createHash, createPrivateKey, createSign, type KeyObject } from 'node:crypto';
import forge from 'node-forge';
import { PDFDocument } from 'pdf-lib';
import placeholder from '@signpdf/placeholder-pdf-lib';
import signpdf from '@signpdf/signpdf';
import utils from '@signpdf/utils';

/**
 * The installation's document seal (issue 41): a PAdES baseline (B-B) signature over the
 * whole PDF, so any reader reports "not modified since signed". The @signpdf packages place
 * the signature dictionary and fill the byte range; the CMS itself is built here because
 * @signpdf's own P12 signer writes the legacy adbe.pkcs7 attributes (a signing-time
 * attribute, no signing-certificate-v2), which PAdES forbids resp. requires.
 */
export interface SealIdentity {
  /** PEM of the RSA private key. */
  keyPem: string;
  /** PEM of the X.509 certificate that goes with it. */
  certificatePem: string;
}

export interface SealDetails {
  /** Shown by readers as the signer: the firm or installation that seals. */
  name: string;
  reason: string;
  location: string;
  contactInfo: string;
  signingTime?: Date;
}

/** Room kept for the CMS in the file (hex doubles it): the certificate plus a 4096-bit signature fit well. */
const SIGNATURE_BYTES = 16_384;

// CommonJS packages: their default import is module.exports (named imports are not detected for all of them).
const { pdflibAddPlaceholder } = placeholder;
const { Signer, SUBFILTER_ETSI_CADES_DETACHED } = utils;
const { SignPdf } = signpdf;

/** Seals a finished PDF: the returned bytes must not be changed afterwards (any change breaks the seal). */
export async function sealPdf(pdf: Uint8Array, identity: SealIdentity, details: SealDetails): Promise<Buffer> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const signingTime = details.signingTime ?? new Date();
  pdflibAddPlaceholder({
    pdfDoc: doc,
    reason: details.reason,
    contactInfo: details.contactInfo,
    name: details.name,
    location: details.location,
    signingTime,
    signatureLength: SIGNATURE_BYTES,
    subFilter: SUBFILTER_ETSI_CADES_DETACHED,
  });
  // No object streams: the byte-range placeholder must stay findable as plain text.
  const prepared = Buffer.from(await doc.save({ useObjectStreams: false }));
  return new SignPdf().sign(prepared, new CadesSigner(identity));
}

/** The certificate's SHA-256 fingerprint (hex, colon-free), for the certificate page and the docs' "how to check". */
export function sealFingerprint(identity: SealIdentity): string {
  const der = forge.asn1.toDer(forge.pki.certificateToAsn1(forge.pki.certificateFromPem(identity.certificatePem))).getBytes();
  return createHash('sha256').update(Buffer.from(der, 'binary')).digest('hex');
}

const { asn1 } = forge;
const { oids } = forge.pki;
const OID_SIGNING_CERTIFICATE_V2 = '1.2.840.113549.1.9.16.2.47';

const seq = (items: forge.asn1.Asn1[]) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, items);
const set = (items: forge.asn1.Asn1[]) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SET, true, items);
const oid = (id: string) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(id).getBytes());
const octets = (bytes: Buffer) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OCTETSTRING, false, bytes.toString('binary'));
const int = (n: number) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.INTEGER, false, asn1.integerToDer(n).getBytes());
const der = (node: forge.asn1.Asn1) => Buffer.from(asn1.toDer(node).getBytes(), 'binary');
const algorithm = (id: string) => seq([oid(id), asn1.create(asn1.Class.UNIVERSAL, asn1.Type.NULL, false, '')]);
const attribute = (type: string, value: forge.asn1.Asn1) => seq([oid(type), set([value])]);

/** A detached CMS SignedData with the PAdES B-B signed attributes: content type, message digest, signing certificate v2. */
class CadesSigner extends Signer {
  private readonly key: KeyObject;
  private readonly certificate: forge.pki.Certificate;
  private readonly certificateDer: Buffer;

  constructor(identity: SealIdentity) {
    super();
    this.key = createPrivateKey(identity.keyPem);
    // node-forge reads RSA certificates only; the seal's signature algorithm below is RSA too.
    if (this.key.asymmetricKeyType !== 'rsa') throw new Error('the signature seal needs an RSA key');
    this.certificate = forge.pki.certificateFromPem(identity.certificatePem);
    this.certificateDer = der(forge.pki.certificateToAsn1(this.certificate));
  }

  override async sign(content: Buffer): Promise<Buffer> {
    const digest = createHash('sha256').update(content).digest();
    const attributes = [
      attribute(oids.contentType!, oid(oids.data!)),
      attribute(oids.messageDigest!, octets(digest)),
      attribute(OID_SIGNING_CERTIFICATE_V2, seq([seq([seq([octets(createHash('sha256').update(this.certificateDer).digest())])])])),
    ]
      // DER orders a SET OF by the encodings of its members.
      .map(der)
      .sort(Buffer.compare);
    const signedAttributes = Buffer.concat([Buffer.from([0x31]), derLength(attributes), ...attributes]);
    const signature = createSign('sha256').update(signedAttributes).sign(this.key);
    const issuerAndSerial = seq([
      forge.pki.distinguishedNameToAsn1(this.certificate.issuer),
      asn1.create(asn1.Class.UNIVERSAL, asn1.Type.INTEGER, false, forge.util.hexToBytes(this.certificate.serialNumber)),
    ]);
    const signerInfo = seq([
      int(1),
      issuerAndSerial,
      algorithm(oids.sha256!),
      // The signed attributes as [0] IMPLICIT: the same bytes with the SET tag changed.
      asn1.fromDer(Buffer.concat([Buffer.from([0xa0]), signedAttributes.subarray(1)]).toString('binary')),
      algorithm(oids.rsaEncryption!),
      octets(signature),
    ]);
    const signedData = seq([
      int(1),
      set([algorithm(oids.sha256!)]),
      seq([oid(oids.data!)]),
      asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [forge.pki.certificateToAsn1(this.certificate)]),
      set([signerInfo]),
    ]);
    return der(seq([oid(oids.signedData!), asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [signedData])]));
  }
}

/** A DER length prefix for the concatenated members. */
function derLength(members: Buffer[]): Buffer {
  const length = members.reduce((n, m) => n + m.length, 0);
  if (length < 0x80) return Buffer.from([length]);
  const bytes: number[] = [];
  for (let n = length; n > 0; n >>= 8) bytes.unshift(n & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}
