/**
 * Shapes the twelfth helper batches found missing or wrong (issue 19): a move with what moves between the verb and
 * "off", a switch that lands "onto" the new thing, a phone that is someone else's, a version fixed with 统一用, the
 * home broadband's provider and a reference manager, and a role named with "for" that the product also fills.
 * Examples are our own wording.
 */
import { describe, expect, it } from 'vitest';
import { facts } from './helpers.ts';

describe('a move off something', () => {
  it('drops what is moved off when the thing moved stands between the verb and off', () => {
    expect(facts('We are moving CI off Travis; everything builds on Buildkite from now on.')).toEqual(['CI≠Travis', 'CI=Buildkite']);
    expect(facts('We migrated our logging off Splunk.')).toEqual(['logging≠Splunk']);
    expect(facts('Moving the database off MySQL next month.')).toEqual(['database≠MySQL']);
  });

  it('keeps what it moves onto', () => {
    expect(facts('We moved object storage off Ceph onto Amazon S3 in May.')).toEqual(['object storage≠Ceph', 'object storage=Amazon S3']);
    expect(facts('We moved off Ceph onto Amazon S3.')).toEqual(['object storage≠Ceph', 'object storage=Amazon S3']);
  });

  it('reads no drop in a move of something that is no product, or a kick-off', () => {
    expect(facts('I moved the kids off the tablet for the summer.')).toEqual([]);
    expect(facts('We kicked off the Kafka rollout today.')).not.toContain('message queue≠Kafka');
  });
});

describe('a phone number that is not the user’s', () => {
  it('leaves a vendor’s, a repairman’s or a plumber’s number out', () => {
    expect(facts('vendor 的电话是 +1 (206) 555-0147，帮我写封邮件问问交期。')).toEqual([]);
    expect(facts('修空调师傅的电话是 139-0000-2222，约了周六上午。')).toEqual([]);
    expect(facts('The plumber’s number is 415-555-0100, he comes on Friday.')).toEqual([]);
  });

  it('still keeps the user’s own', () => {
    expect(facts('我的电话是 139-0000-3333，有事打这个。')).toEqual(['phone number=139-0000-3333']);
    expect(facts('My number is 415-555-0177 if the delivery is late.')).toEqual(['phone number=415-555-0177']);
  });
});

describe('more of the user’s setup', () => {
  it('reads a version fixed with 统一用 or 都是', () => {
    expect(facts('JAX 版本统一用 0.4.30，别的先不动。')).toEqual(['jax version=0.4.30']);
    expect(facts('Flax 的版本都是 0.8.5。')).toEqual(['flax version=0.8.5']);
  });

  it('files the home broadband’s provider and a reference manager', () => {
    expect(facts('家里宽带不用中国联通了，下个月换成中国电信。')).toEqual(['ISP≠中国联通', 'ISP=中国电信']);
    expect(facts('Drop Mendeley, I keep my references in Zotero now.')).toEqual(['reference manager≠Mendeley', 'reference manager=Zotero']);
    // A bare carrier name or a line that says nothing of the broadband sets nothing.
    expect(facts('宽带换好了，网速快多了。')).toEqual([]);
  });

  it('takes the role said with "for" when the product fills it too', () => {
    expect(facts('We went with Envoy for the API gateway.')).toEqual(['API gateway=Envoy']);
    expect(facts('load balancer 其实是 Traefik，不是 Nginx。')).toContain('load balancer=Traefik');
    // "for CI" only confirms what Jenkins is.
    expect(facts('Jenkins for CI, as before.')).toEqual(['CI=Jenkins']);
  });
});
