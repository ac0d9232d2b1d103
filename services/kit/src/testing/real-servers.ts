/**
 * Contract suites run every adapter against its embedded side always, and against its
 * real server when the server's URL is in the environment. In CI (CI=true) a missing
 * URL is a failure, never a silent skip: `.ci/run` must have started the server.
 */
/** STRIPE_MOCK_URL: Stripe's API mock (stripe-mock), which the billing service's Stripe suite pays through. */
export type RealServerVar = 'POSTGRES_URL' | 'AMQP_URL' | 'S3_ENDPOINT' | 'KEYCLOAK_URL' | 'MAILPIT_URL' | 'STRIPE_MOCK_URL';

export function realServerUrl(name: RealServerVar): string | undefined {
  const value = process.env[name];
  if (value) return value;
  if (process.env.CI === 'true') {
    throw new Error(`${name} must be set in CI: the contract suite has to run against the real server`);
  }
  return undefined;
}
