import { escapeHtml, html, isolated, isolatedText, SafeHtml } from './html';

describe('html template', () => {
  it('escapes every interpolated value, quotes included', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
    expect(html`<p title="${'"><script>'}">${'<b>'}</p>`.value).toBe('<p title="&quot;&gt;&lt;script&gt;">&lt;b&gt;</p>');
  });

  it('nests html fragments and arrays without escaping them twice, and drops null/undefined/false', () => {
    const items = ['a&b', '<c>'].map((x) => html`<li>${x}</li>`);
    expect(html`<ul>${items}</ul>${null}${undefined}${false}${0}`.value).toBe('<ul><li>a&amp;b</li><li>&lt;c&gt;</li></ul>0');
  });

  it('refuses values it cannot interpolate safely', () => {
    expect(() => html`<p>${{ toString: () => '<b>' }}</p>`).toThrow(TypeError);
    expect(String(new SafeHtml('<i>'))).toBe('<i>');
  });

  it('isolates names in markup and in plain text', () => {
    expect(isolated('<b>\u202E').value).toBe('<bdi>&lt;b&gt;\u202E</bdi>');
    expect(isolatedText('Acme')).toBe('\u2068Acme\u2069');
  });
});
