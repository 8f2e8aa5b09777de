/**
 * Shapes the sixteenth helper batches found missing or wrong (issue 19), in our own wording: a correction sets the
 * right value alone, a replacement takes the slot its drop names, choices said with 定的是 / "we follow" / pin 在,
 * hypervisors, media servers, translation tools and connection poolers, a switch with 把 done, a failure on a platform,
 * a request to find something out, and a manuscript's due date; then what the seventeenth round showed wrong (an
 * adverb read as a value, 用不着, 回老家, a closing 的, tab 缩进, a number the user called) or missing.
 */
import { describe, expect, it } from 'vitest';
import { facts } from './helpers.ts';

describe('corrections and replacements', () => {
  it('sets the corrected value and unsets nothing: the wrong one was misspoken, not dropped', () => {
    expect(facts('我说错了，日志系统用的不是 Graylog，是 Loki。')).toEqual(['logging=Loki']);
    expect(facts('刚才写错了，Ruby 版本不是 3.1，是 3.3.4。')).toEqual(['ruby version=3.3.4']);
  });

  it('files a replacement under the slot of the product it replaces, when it can fill that slot', () => {
    expect(facts('API 网关不用 Tyk 了，换成 Envoy。')).toEqual(['API gateway≠Tyk', 'API gateway=Envoy']);
    // Nothing was dropped: Envoy keeps its own slot.
    expect(facts('边缘我们换成了 Envoy。')).toEqual(['load balancer=Envoy']);
  });

  it('reads a switch said with 把 and done (了 after the new one) as the drop of the old one', () => {
    expect(facts('我们把搜索从 Elasticsearch 换成 Meilisearch 了。')).toEqual(['search engine≠Elasticsearch', 'search engine=Meilisearch']);
  });
});

describe('choices said in other words', () => {
  it('reads a slot decided with 定的是', () => {
    expect(facts('配置中心我们定的是 Nacos。')).toEqual(['config center=Nacos']);
  });

  it('reads a version pinned with pin 在 / pin 到', () => {
    expect(facts('Python 版本 pin 在 3.12.4，别动。')).toEqual(['python version=3.12.4']);
    expect(facts('terraform 版本 pin 到 1.8.5 了。')).toEqual(['terraform version=1.8.5']);
  });

  it('reads a formatter the team follows', () => {
    expect(facts('In this repo we follow Prettier, no extra rules.')).toEqual(['formatter=Prettier']);
    expect(facts('We follow the upstream guide for this.')).toEqual([]);
  });
});

describe('new slots', () => {
  it('names the hypervisor, with its version', () => {
    expect(facts('Our lab boxes run XCP-ng 8.2 as the hypervisor.')).toEqual(['hypervisor=XCP-ng 8.2']);
  });

  it('names a media server and a translation tool, with a drop and its replacement', () => {
    expect(facts('家里的影音服务器不用 Plex 了，改用 Emby。')).toEqual(['media server≠Plex', 'media server=Emby']);
    expect(facts('翻译工具从 OmegaT 换成 Wordfast 了。')).toEqual(['CAT tool≠OmegaT', 'CAT tool=Wordfast']);
  });

  it('tells a pooler in front of the database from a pool inside the application', () => {
    expect(facts('Postgres 前面的连接池代理不用 Pgpool-II 了，换成 PgCat。')).toEqual(['connection pooler≠Pgpool-II', 'connection pooler=PgCat']);
    expect(facts('Java 服务的连接池用 HikariCP。')).toEqual(['connection pool=HikariCP']);
  });
});

describe('what is not a choice', () => {
  it('reads nothing from a platform something fails on', () => {
    expect(facts('这个小工具在 Windows 上跑不起来。')).toEqual([]);
    expect(facts('这个安装包在 macOS 上装不上。')).toEqual([]);
  });

  it('reads nothing from a request to find something out', () => {
    expect(facts('Could you check whether our domain renews before June 30?')).toEqual([]);
    expect(facts('Can you see if the build passes on Node 22?')).toEqual([]);
    // A request that states the choice is still one.
    expect(facts('Can you use Vitest for the new tests?')).toEqual(['test framework=Vitest']);
  });
});

describe('deadlines in other words', () => {
  it('reads a manuscript due date as the deadline', () => {
    expect(facts('这篇稿子的截稿日期是下周五。')).toEqual(['deadline=2026-03-13']);
  });
});

describe('the seventeenth round, read for a last mend', () => {
  it('takes no adverb for a value ("no replacement picked yet")', () => {
    expect(facts("We're dropping Sentry next month. No replacement picked yet, still looking.")).toEqual(['error tracking≠Sentry']);
  });

  it('takes nothing the user says is not needed (用不着 X)', () => {
    expect(facts('Gulp 先 drop 掉，这个小项目用不着 bundler。')).not.toContainEqual(expect.stringMatching(/=不着/));
  });

  it('reads no hometown from going home, and leaves a closing 的 out of the value', () => {
    expect(facts('国庆回老家的车票买好了。')).toEqual([]);
    expect(facts('我老家是安徽的。')).toEqual(['hometown=安徽']);
  });

  it('reads tab indentation as `tab`, and a number the user called as no number of theirs', () => {
    expect(facts('Go 代码统一用 tab 缩进。')).toEqual(['indentation=tab']);
    expect(facts('房东电话打过 138-0000-2222，一直没人接。')).toEqual([]);
  });

  it('knows more state-management libraries and broadband providers, and what a setup stays with', () => {
    expect(facts('状态管理最后定了 Riverpod。')).toEqual(['state management=Riverpod']);
    expect(facts('Broadband stays with Vodafone for now.')).toEqual(['ISP=Vodafone']);
  });
});
