// The official account's web authorisation (网页授权, snsapi_base), which JSAPI payment needs: inside WeChat's browser
// the page sends the payer to open.weixin.qq.com's authorize URL, WeChat returns them to our redirect_uri with a
// one-time `code` (valid 5 minutes), and the server exchanges it for the payer's openid under our appid
// (sns/oauth2/access_token). snsapi_base asks the payer nothing: it only identifies them. Development: the same client
// pointed at the local stand-in (/dev/wechat/…), which issues codes and answers the exchange the same way.
import { AppError } from '../../../lib/errors';

export const WECHAT_AUTHORIZE_URL = 'https://open.weixin.qq.com/connect/oauth2/authorize';
export const WECHAT_OAUTH_TOKEN_URL = 'https://api.weixin.qq.com/sns/oauth2/access_token';

export interface WechatOAuthOptions {
  /** The official account's appid (the same appid the merchant pays under). */
  appid: string;
  /** The official account's AppSecret. */
  secret: string;
  authorizeUrl?: string;
  tokenUrl?: string;
  fetch?: typeof fetch;
}

export interface WechatOAuth {
  readonly appid: string;
  /** Where to send the payer's browser; WeChat returns it to `redirectUri?code=…&state=…`. */
  authorizeUrl(redirectUri: string, state: string): string;
  /** The payer's openid for a code WeChat returned (each code works once). */
  openidFor(code: string): Promise<string>;
}

/** A code WeChat returned (or anything else) that may go into the exchange's query. */
const CODE = /^[0-9A-Za-z_-]{1,128}$/;
const OPENID = /^[0-9A-Za-z_-]{1,128}$/;

export function createWechatOAuth(opts: WechatOAuthOptions): WechatOAuth {
  const doFetch: typeof fetch = opts.fetch ?? ((input, init) => fetch(input, init));
  return {
    appid: opts.appid,
    authorizeUrl(redirectUri, state) {
      // WeChat reads the parameters in this order and needs the #wechat_redirect fragment.
      const q = new URLSearchParams({
        appid: opts.appid,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: 'snsapi_base',
        state,
      });
      return `${opts.authorizeUrl ?? WECHAT_AUTHORIZE_URL}?${q}#wechat_redirect`;
    },
    async openidFor(code) {
      if (!CODE.test(code)) throw new AppError('wechatAuthFailed');
      const q = new URLSearchParams({
        appid: opts.appid,
        secret: opts.secret,
        code,
        grant_type: 'authorization_code',
      });
      let json: { openid?: unknown; errcode?: unknown; errmsg?: unknown };
      try {
        const res = await doFetch(`${opts.tokenUrl ?? WECHAT_OAUTH_TOKEN_URL}?${q}`);
        json = (await res.json()) as typeof json;
      } catch (err) {
        throw new AppError('payUnavailable', { cause: String(err) });
      }
      // Errors come back as HTTP 200 with errcode (40029 invalid code, 40163 code been used, 40125 invalid secret).
      if (typeof json.openid !== 'string' || !OPENID.test(json.openid)) {
        throw new AppError('wechatAuthFailed', { cause: `errcode ${String(json.errcode)}: ${String(json.errmsg)}` });
      }
      return json.openid;
    },
  };
}
