import { describe, expect, it } from 'vitest';
import { deprecated, facts } from './helpers.ts';

describe('deprecated topics', () => {
  it('keeps the topic as written, without the words that only point at it', () => {
    expect(deprecated('上次聊的 Consul 方案先搁置，配置中心先用 etcd。')).toEqual(['Consul 方案']);
    expect(deprecated('Forget the Cassandra idea, we will keep Postgres.')).toEqual(['Cassandra idea']);
    expect(deprecated('forget 刚才那个 sharding 方案，先加只读副本。')).toEqual(['sharding 方案']);
    expect(deprecated('之前讨论的微服务拆分方案作废，先保持单体。')).toEqual(['微服务拆分方案']);
    expect(deprecated("Let's scrap the GraphQL idea and stay with REST.")).toEqual(['GraphQL idea']);
    expect(deprecated('Forget about the rewrite plan for this sprint.')).toEqual(['rewrite plan']);
    expect(deprecated('灰度那套先不用了。')).toEqual(['灰度那套']);
  });

  it('keeps the pointing words when nothing else names the topic', () => {
    expect(deprecated('这个问题不算了，换一个：磁盘怎么清理？')).toEqual(['这个问题']);
    expect(deprecated('Scrap that plan, we will start over.')).toEqual(['that plan']);
    expect(deprecated('刚才说的都不算，我们从头来。')).toEqual(['刚才说的']);
    expect(deprecated('这个需求不做了。')).toEqual(['这个需求']);
  });

  it('does not unset the products inside a deprecated topic', () => {
    expect(facts('Forget the Cassandra idea.')).toEqual([]);
    expect(facts('忘了我刚才说的 Terraform 的事吧。')).toEqual([]);
    expect(deprecated('忘了我刚才说的 Terraform 的事吧。')).toEqual(['Terraform 的事']);
  });

  it('needs a request to forget, not a lapse of memory or a reminder', () => {
    expect(deprecated('I forgot my password for the VPN.')).toEqual([]);
    expect(deprecated('I forget the syntax of rebase.')).toEqual([]);
    expect(deprecated("Don't forget the meeting tomorrow.")).toEqual([]);
    expect(deprecated('我忘了密码。')).toEqual([]);
    expect(deprecated('别忘了明天的会。')).toEqual([]);
  });

  it('needs a topic or a strong word: cancelling an order is no deprecation', () => {
    expect(deprecated('帮我取消订单')).toEqual([]);
    expect(deprecated('Cancel the Friday meeting.')).toEqual([]);
    expect(deprecated('不用担心，重新来一次就好。')).toEqual([]);
  });

  it('says nothing in a question', () => {
    expect(deprecated('要不要放弃 Consul 方案？')).toEqual([]);
    expect(deprecated('Should we scrap the Consul plan?')).toEqual([]);
  });
});
