/**
 * A value changed in the same message, said the everyday way (issue 19's helper batches): the old one after "was"
 * or 原来批的是, the new one after "pushed it to" or 现在只剩; a budget whose amount comes a clause after the word; a
 * rise ("went up to") that is no cap, and a cap set a few words before its amount; a slot said wrong and righted a
 * clause later (端口说错了，应该是 …); a budget moved from one sum to another; a rollback. Examples are our own wording.
 */
import { describe, expect, it } from 'vitest';
import { facts } from './helpers.ts';

const NOW = '2026-05-12T10:00:00+08:00';

describe('a value changed in the same message', () => {
  it('the deadline that was, and the one it was moved to', () => {
    expect(facts('The deadline was June 2, but legal pushed it to June 9.', NOW)).toEqual(['deadline=2026-06-09']);
    expect(facts('The review deadline had been May 20; now it is May 22.', NOW)).toEqual(['deadline=2026-05-22']);
  });

  it('a budget cut or raised from what was approved', () => {
    expect(facts('经费又砍了，原来批的是8万元，现在只剩5万元。', NOW)).toEqual(['budget=50000 CNY']);
    expect(facts('预算调整了，原本是3000元，现在是4500元。', NOW)).toEqual(['budget=4500 CNY']);
  });

  it('a budget moved from one sum to another takes the second; a range with no word of change keeps the first', () => {
    expect(facts('Finance raised our cloud budget from $4,000 to $6,500.', NOW)).toEqual(['budget=6500 USD']);
    expect(facts('团建预算变了，从6000元加到9000元。', NOW)).toEqual(['budget=9000 CNY']);
    expect(facts('预算从3000元到5000元都行。', NOW)).toEqual(['budget=3000 CNY']);
  });

  it('a version or product rolled back to, or stayed on, is set', () => {
    expect(facts('We rolled back to MySQL 5.7 after the upgrade broke replication.', NOW)).toEqual(['database=MySQL 5.7']);
    expect(facts('Node 还是退回 18 吧，20 跟老插件不兼容。', NOW)).toEqual(['node version=18']);
    expect(facts('我们把 Go 回退到 1.21 了。', NOW)).toEqual(['go version=1.21']);
    expect(facts("We're staying on Meilisearch.", NOW)).toEqual(['search engine=Meilisearch']);
  });

  it('a budget named in one clause and its amount in the next', () => {
    expect(facts('预算定下来了，今年服务器一共 ¥60,000。', NOW)).toEqual(['budget=60000 CNY']);
  });

  it('a rise is not a cap; a cap set a few words before its amount is', () => {
    expect(facts('Our electricity bill went up to $310 this month, so I am capping eating out at $200.', NOW)).toEqual(['budget=200 USD']);
    expect(facts('Tickets went up to $95.', NOW)).toEqual([]);
  });
});

describe('a slot said wrong, righted a clause later', () => {
  it('takes the righted value, not the one taken back, in either language', () => {
    expect(facts('抱歉，网关端口我记错了，应该是 9443，不是 9444。', NOW)).toEqual(['port=9443']);
    expect(facts('时区我填错了，不是 Europe/Paris，应该是 Europe/Berlin。', NOW)).toEqual(['timezone=Europe/Berlin']);
    expect(facts('The cache I mentioned was wrong: it is Memcached, not Redis.', NOW)).toEqual(['cache=Memcached']);
  });

  it('sets nothing when the mistake is not about a value, or two values are given', () => {
    expect(facts('The test I wrote is wrong, it keeps timing out.', NOW)).toEqual([]);
    expect(facts('端口说错了，可能是 8080 也可能是 8081。', NOW)).toEqual([]);
  });
});
