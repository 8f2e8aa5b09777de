import { describe, expect, it } from 'vitest';
import { deprecated, facts } from './helpers.ts';

describe('deprecated topics', () => {
  it('keeps the topic as written, without the words that only point at it', () => {
    expect(deprecated('之前说的 Kafka 方案先放弃，日志先用 Filebeat。')).toEqual(['Kafka 方案']);
    expect(deprecated('Forget the Kafka idea, we will keep RabbitMQ.')).toEqual(['Kafka idea']);
    expect(deprecated('forget 之前那个 canary 方案，直接全量发布。')).toEqual(['canary 方案']);
    expect(deprecated('之前讨论的微服务拆分方案作废，先保持单体。')).toEqual(['微服务拆分方案']);
    expect(deprecated("Let's scrap the GraphQL idea and stick with REST.")).toEqual(['GraphQL idea']);
    expect(deprecated('Forget about the migration plan for now.')).toEqual(['migration plan']);
    expect(deprecated('灰度那套先不用了。')).toEqual(['灰度那套']);
  });

  it('keeps the pointing words when nothing else names the topic', () => {
    expect(deprecated('这个问题作废，重新来：时区怎么改？')).toEqual(['这个问题']);
    expect(deprecated('Scrap that plan, we will start over.')).toEqual(['that plan']);
    expect(deprecated('刚才说的都不算，我们从头来。')).toEqual(['刚才说的']);
    expect(deprecated('这个需求不做了。')).toEqual(['这个需求']);
  });

  it('does not unset the products inside a deprecated topic', () => {
    expect(facts('Forget the Kafka idea.')).toEqual([]);
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
    expect(deprecated('要不要放弃 Kafka 方案？')).toEqual([]);
    expect(deprecated('Should we scrap the Kafka plan?')).toEqual([]);
  });
});
