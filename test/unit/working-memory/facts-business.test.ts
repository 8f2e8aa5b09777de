/**
 * Slots of a small business and of a lab or a cluster, as the helper labellers named them (issue 19's twelfth round):
 * accounting software, e-commerce platform, POS system, courier, delivery platform, experiment tracking, ingress
 * controller. A relative's shop is theirs. Examples are our own wording.
 */
import { describe, expect, it } from 'vitest';
import { facts } from './helpers.ts';

describe("a small business's tools", () => {
  it('accounting software and the shop platform, by product or by the slot word', () => {
    expect(facts('记账软件以后统一用金蝶云星空。')).toEqual(['accounting software=金蝶云星空']);
    expect(facts('We switched our bookkeeping to Xero last quarter.')).toEqual(['accounting software=Xero']);
    expect(facts('网店平台从有赞换到了微店。')).toEqual(['e-commerce platform≠有赞', 'e-commerce platform=微店']);
  });

  it('the till, the courier and the delivery apps', () => {
    expect(facts('店里收银系统换成银豹了。')).toEqual(['POS system=银豹']);
    expect(facts('以后发货统一走顺丰，韵达不用了。')).toEqual(['courier=顺丰', 'courier≠韵达']);
    expect(facts('外卖平台以后只用饿了么。')).toEqual(['delivery platform=饿了么']);
  });

  it("a relative's shop is theirs", () => {
    expect(facts("My cousin's bakery uses Shopify and she loves it.")).toEqual([]);
  });
});

describe("a lab's and a cluster's tools", () => {
  it('experiment tracking and the ingress controller', () => {
    expect(facts('Our runs are tracked in MLflow now.')).toEqual(['experiment tracking=MLflow']);
    expect(facts('集群的 ingress controller 统一用 Traefik，Contour 不用了。')).toEqual(['ingress controller=Traefik', 'ingress controller≠Contour']);
  });
});
