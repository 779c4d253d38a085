// A real OpenID Provider (panva's oidc-provider) on the loopback, for the sign-in tests.
//
// Settings come from the environment: OIDC_PORT, OIDC_REDIRECT_URIS (a JSON list, given to
// every client). Three confidential clients share the secret "loko-test-secret":
//   loko                 an ordinary client;
//   loko-wrong-audience  its ID tokens name another audience ("someone-else");
//   loko-expired         its ID tokens expired an hour before they were issued.
// The dev login form accepts any login and password; the login becomes the subject, and
// the e-mail is the login itself when it has an "@" (verified unless it starts with
// "unverified"). Consent is granted without a page, as for a first-party client.
import Provider from 'oidc-provider';

const port = Number(process.env.OIDC_PORT);
const issuer = `http://127.0.0.1:${port}`;
const redirectUris = JSON.parse(process.env.OIDC_REDIRECT_URIS || '[]');
const secret = 'loko-test-secret';
const client = (id) => ({
  client_id: id,
  client_secret: secret,
  redirect_uris: redirectUris,
  post_logout_redirect_uris: redirectUris.map((uri) => new URL(uri).origin + '/login'),
  grant_types: ['authorization_code'],
  response_types: ['code'],
  token_endpoint_auth_method: 'client_secret_basic',
});

const provider = new Provider(issuer, {
  clients: [client('loko'), client('loko-wrong-audience'), client('loko-expired')],
  claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
  features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
  pkce: { required: () => true },
  cookies: { keys: ['loko-test-cookie-key'] },
  ttl: { IdToken: 3600, AccessToken: 3600, Session: 3600, Interaction: 3600, Grant: 3600 },
  async findAccount(ctx, id) {
    const email = id.includes('@') ? id : `${id}@example.test`;
    return {
      accountId: id,
      async claims() {
        return { sub: id, email, email_verified: !id.startsWith('unverified'), name: id.split('@')[0] };
      },
    };
  },
  async loadExistingGrant(ctx) {
    const grantId = ctx.oidc.result?.consent?.grantId || ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
    if (grantId) return ctx.oidc.provider.Grant.find(grantId);
    const grant = new ctx.oidc.provider.Grant({
      clientId: ctx.oidc.client.clientId,
      accountId: ctx.oidc.session.accountId,
    });
    grant.addOIDCScope('openid email profile');
    await grant.save();
    return grant;
  },
});

const issue = provider.IdToken.prototype.issue;
provider.IdToken.prototype.issue = function issueForTheTests(options = {}) {
  if (options.use === 'idtoken' && this.client?.clientId === 'loko-expired') {
    return issue.call(this, { ...options, expiresAt: Math.floor(Date.now() / 1000) - 3600 });
  }
  if (options.use === 'idtoken' && this.client?.clientId === 'loko-wrong-audience') {
    const real = this.client;
    this.client = new Proxy(real, {
      get: (target, name) => (name === 'clientId' ? 'someone-else' : Reflect.get(target, name, target)),
    });
    return issue.call(this, options).finally(() => { this.client = real; });
  }
  return issue.call(this, options);
};

provider.listen(port, '127.0.0.1', () => {
  process.stdout.write(`ready ${issuer}\n`);
});
