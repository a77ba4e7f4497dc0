/** The agreement page as the suites read it. */
export interface Page {
  status: number;
  headers: Headers;
  html: string;
  /** `agreement_csrf=…` from Set-Cookie, when the page set one. */
  cookie?: string;
  csrf?: string;
  termsVersion?: string;
}

const hidden = (html: string, name: string) => new RegExp(`<input type="hidden" name="${name}" value="([^"]*)">`).exec(html)?.[1];

/** The agreement page over plain HTTP, as a browser without JavaScript on the service's origin `origin` uses it. */
export function agreementPage(origin: string, userAgent = 'Mozilla/5.0 (Linux; Android 14) AgreementE2E/1.0') {
  const get = async (url: string, cookie?: string): Promise<Page> => {
    const response = await fetch(url, { headers: { ...(cookie ? { cookie } : {}), 'user-agent': userAgent } });
    const html = await response.text();
    const setCookie = response.headers.getSetCookie()[0];
    return {
      status: response.status,
      headers: response.headers,
      html,
      cookie: setCookie?.split(';')[0],
      csrf: hidden(html, 'csrf_token'),
      termsVersion: hidden(html, 'terms_version'),
    };
  };

  /** Posts the form as the page's browser would (Origin and Sec-Fetch-Site included), with overrides. */
  const post = async (
    url: string,
    form: Record<string, string | undefined>,
    options: { cookie?: string; headers?: Record<string, string> } = {},
  ): Promise<Page> => {
    const body = new URLSearchParams(Object.entries(form).filter((e): e is [string, string] => e[1] !== undefined));
    const response = await fetch(url, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin,
        'sec-fetch-site': 'same-origin',
        'user-agent': userAgent,
        ...(options.cookie ? { cookie: options.cookie } : {}),
        ...options.headers,
      },
      body: body.toString(),
    });
    return { status: response.status, headers: response.headers, html: await response.text() };
  };

  /** Opens the page and accepts with everything a browser would send. */
  const accept = async (url: string): Promise<Page> => {
    const page = await get(url);
    return post(url, { csrf_token: page.csrf, terms_version: page.termsVersion }, { cookie: page.cookie });
  };

  return { get, post, accept };
}
