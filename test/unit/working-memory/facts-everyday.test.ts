/**
 * Everyday ways of saying a choice, and of saying what is not one (issue 19's helper batches): 直接上 X, "we'll just
 * pay for X", a rollback from one version to another, answers asked in Markdown (or a Markdown table); a site hosted
 * on a cloud; an editor's plugin named in another editor, and a move only tried; the time zone the user wants times
 * in (Pacific time too), a diet taken up or kept, answers asked to keep to the point; a child's allergy, a parent's
 * phone and a choice not yet made. Examples are our own wording.
 */
import { describe, expect, it } from 'vitest';
import { facts } from './helpers.ts';

describe('a choice said the everyday way', () => {
  it('直接上 X, and paying for a service rather than running one', () => {
    expect(facts('搜索这块不折腾了，直接上 Meilisearch。')).toEqual(['search engine=Meilisearch']);
    expect(facts("Scrap the self-hosted Prometheus plan; we'll pay for Datadog.")).toEqual(['monitoring=Datadog']);
  });

  it('a rollback from one version to another leaves the first', () => {
    expect(facts('We rolled the gateway back from Kong 3.5 to Kong 3.3 last night.')).toEqual(['API gateway≠Kong 3.5', 'API gateway=Kong 3.3']);
  });

  it('answers asked in Markdown; Markdown tables forbidden set nothing', () => {
    expect(facts('Please format every answer in Markdown.')).toEqual(['answer format=Markdown']);
    expect(facts('以后回答别用 markdown 表格。')).toEqual([]);
    // The table kept with it, as labellers write it.
    expect(facts('回答统一用 Markdown table，方便我贴进文档。')).toEqual(['answer format=Markdown table']);
  });

  it('what a site is hosted on is its hosting, a cloud provider too', () => {
    expect(facts('Our marketing site is hosted on Azure.')).toEqual(['hosting=Azure']);
    expect(facts('官网 host 在阿里云上，最近打开很慢。')).toEqual(['hosting=阿里云']);
  });
});

describe('what is not a choice', () => {
  it("an editor's plugin or mode inside another editor is not the editor", () => {
    expect(facts('I use Sublime Text with the Vim mode on.')).toEqual(['editor=Sublime Text']);
    expect(facts('我用 Zed，开着 Emacs 键位。')).toEqual(['editor=Zed']);
  });

  it('a move only tried, and given up, sets nothing', () => {
    expect(facts('试着把 Node 升到 22，结果 sharp 编译不过，先不升了。')).toEqual([]);
  });
});

describe('about the user, said in passing', () => {
  it('the zone the user wants times in; a diet taken up; answers kept to the point', () => {
    expect(facts('Please give all times in JST while I am in Osaka.')).toEqual(['timezone=JST']);
    expect(facts('以后时间都按 UTC+8 来写。')).toEqual(['timezone=UTC+8']);
    expect(facts("I'm going vegan from next week, so keep dairy out of the plans.")).toEqual(['diet=vegan']);
    expect(facts('以后回答别讲那么长，说重点就行。')).toEqual(['answer length=short']);
    expect(facts("I've been pescatarian for a year, so fish is fine.")).toEqual(['diet=pescatarian']);
    expect(facts('My brother has been vegan since college.')).toEqual([]);
    expect(facts("Heads up, I'm on Eastern time this month.")).toEqual(['timezone=Eastern time']);
  });

  it("a child's allergy and a parent's phone are theirs; a choice not yet made sets nothing", () => {
    expect(facts('我 son 对芒果过敏，夏令营的饭能单独安排吗？')).toEqual([]);
    expect(facts('我妈手机号是 139-0000-1111，帮我提醒她周日复诊。')).toEqual([]);
    expect(facts('队列用 NATS 还是 Kafka 我还没 decide。')).toEqual([]);
  });
});

describe('ops choices said in passing', () => {
  it('where the alerts go, a tool dropped with 不打算用…了, a budget cut to what is left', () => {
    expect(facts('日志用 Loki，告警统一发到钉钉群。')).toEqual(['logging=Loki', 'alert channel=钉钉']);
    expect(facts('我们平时用钉钉沟通。')).toEqual(['chat tool=钉钉']);
    expect(facts('CI 不打算用 Travis 了，换成 GitHub Actions。')).toEqual(['CI≠Travis', 'CI=GitHub Actions']);
    expect(facts('预算又砍了，现在只剩8万元。')).toEqual(['budget=80000 CNY']);
  });

  it("a supplier's or a help desk's contact is theirs", () => {
    expect(facts('供应商的邮箱是 sales@parts-vendor.example，帮我写封询价邮件。')).toEqual([]);
    // …and so is the phone in the clause after it, and a help desk's.
    expect(facts('供应商的邮箱是 sales@parts-vendor.example，电话 0755-2233 4455，帮我写封询价邮件。')).toEqual([]);
    expect(facts('公司 IT 的 helpdesk 邮箱是 help@corp.example，打不开 VPN 就找他们。')).toEqual([]);
    expect(facts('我的邮箱是 me@home.example，电话换成 13912345678 了。')).toEqual(['email=me@home.example', 'phone number=13912345678']);
  });
});
