/**
 * A slot named by the role a product plays (issue 19's helper batches): a web server in front of the user's service
 * is their reverse proxy when the message says so (反代, 反向代理, "sits behind nginx"), and two products joined by a
 * plus fill one slot together; the tool the user deploys with is the deployment tool. Examples are our own wording.
 */
import { describe, expect, it } from 'vitest';
import { facts } from './helpers.ts';

describe('the reverse proxy, a role a web server plays', () => {
  it('is the slot when the message names it, in either language', () => {
    expect(facts('反代从 Apache 换成 Traefik 了。')).toEqual(['reverse proxy≠Apache', 'reverse proxy=Traefik']);
    expect(facts('反向代理就用 OpenResty 吧。')).toEqual(['reverse proxy=OpenResty']);
    expect(facts('We picked Caddy as our reverse proxy.')).toEqual(['reverse proxy=Caddy']);
  });

  it('is what the user’s service sits behind, and a CDN there stays a CDN', () => {
    expect(facts('The billing service sits behind Traefik.')).toEqual(['reverse proxy=Traefik']);
    expect(facts('Our docs site runs behind Cloudflare.')).toEqual(['CDN=Cloudflare']);
    // Behind in time, or asked about: nothing.
    expect(facts('We are behind on the MySQL upgrade.')).toEqual([]);
    expect(facts('Can Caddy run behind Cloudflare?')).toEqual([]);
  });

  it('is not named without its word: a web server alone stays a web server, an app server never a proxy', () => {
    expect(facts('我们的站点用 Caddy。')).toEqual(['web server=Caddy']);
    expect(facts('The API runs on Gunicorn behind the load balancer.')).toEqual(['web server=Gunicorn']);
  });
});

describe('the deployment tool, named by the verb', () => {
  it('is what the user deploys with; CD named as such stays CD', () => {
    expect(facts('We deploy everything with Spinnaker now.')).toEqual(['deployment tool=Spinnaker']);
    expect(facts('部署统一用 Flux。')).toEqual(['deployment tool=Flux']);
    expect(facts('持续部署用 Spinnaker。')).toEqual(['CD=Spinnaker']);
  });

  it('is named before the verb too (用 Ansible 部署, "use Jenkins to deploy"), and a chart or overlay tool is one', () => {
    expect(facts('我们用 Salt 部署，脚本在 ~/ops/deploy.sh。')).toEqual(['deployment tool=Salt']);
    expect(facts('We use Jenkins to deploy the API.')).toEqual(['deployment tool=Jenkins']);
    expect(facts('deploy 用的是 Ansible。')).toEqual(['deployment tool=Ansible']);
    expect(facts('Kustomize 不用了，以后都用 Helm。')).toEqual(['deployment tool≠Kustomize', 'deployment tool=Helm']);
    // Named as CI, Jenkins stays CI.
    expect(facts('我们 CI 用 Jenkins。')).toEqual(['CI=Jenkins']);
  });

  it("asks not to hear of a product without dropping it; another team's tool is not the user's", () => {
    expect(facts('We deploy with Spinnaker, so skip any Jenkins X suggestions.')).toEqual(['deployment tool=Spinnaker']);
    expect(facts('他们 team 用的是 Spinnaker，我们的部署还在用 Ansible。')).toEqual(['deployment tool=Ansible']);
  });
});
