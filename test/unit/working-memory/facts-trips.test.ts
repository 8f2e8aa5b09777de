/**
 * Where the user is going (issue 19): a trip decided or changed sets `destination`, a place they no longer go to
 * unsets it; a trip only mentioned sets none (blind labellers filed most of those as no fact). Errands
 * (去医院, going to Costco), someone else's trip, a question and a place that is part of an address set nothing.
 * Our own wording.
 */
import { describe, expect, it } from 'vitest';
import { facts } from './helpers.ts';

const destinations = (text: string): string[] => facts(text).filter((f) => f.startsWith('destination'));

describe('a trip', () => {
  it('sets the place of a trip the user has decided on, in Chinese and in English', () => {
    expect(destinations('五一的行程定了，去青岛玩三天，住海边。')).toEqual(['destination=青岛']);
    expect(destinations('决定了，下周带老婆去厦门旅游，帮我看看鼓浪屿怎么安排。')).toEqual(['destination=厦门']);
    expect(destinations('商量好了，机票也订了，周五从深圳飞重庆。')).toEqual(['destination=重庆']);
    expect(destinations("We've decided: flights to Porto for the second week of June.")).toEqual(['destination=Porto']);
    expect(destinations("Change of plan, we're flying to New Orleans on Friday.")).toEqual(['destination=New Orleans']);
    expect(destinations('Confirmed: heading to Vancouver on April 9 for a week with the kids.')).toEqual(['destination=Vancouver']);
  });

  it('sets none for a trip only mentioned, booked or asked about', () => {
    expect(destinations('五一打算去青岛玩三天，住海边。')).toEqual([]);
    expect(destinations('机票订好了，周五从深圳飞重庆。')).toEqual([]);
    expect(destinations('We booked flights to Porto for the second week of June.')).toEqual([]);
    expect(destinations('Heading to Vancouver on April 9 for a week with the kids.')).toEqual([]);
  });

  it('unsets a place the user no longer goes to, and sets the new one', () => {
    expect(destinations('行程改了，不去桂林了，改去三亚。')).toEqual(['destination≠桂林', 'destination=三亚']);
    expect(destinations('这次旅行厦门不去了，去泉州。')).toEqual(['destination≠厦门', 'destination=泉州']);
    expect(destinations('年假定了，这次 trip 改去 Hokkaido，2月出发。')).toEqual(['destination=Hokkaido']);
  });

  it('takes a place at the end of its clause only in a message about a trip', () => {
    expect(destinations('年假批下来了，最后定了去昆明。')).toEqual(['destination=昆明']);
    // No trip word: 去开会, 去献血 are things to do, not places.
    expect(destinations('明天下午去开会。')).toEqual([]);
    expect(destinations('周六第一次去献血，要注意什么？')).toEqual([]);
  });

  it('is no errand, no verb complement, no count and no address', () => {
    expect(destinations('明天上午去医院复查。')).toEqual([]);
    expect(destinations('下午去超市买点菜。')).toEqual([]);
    expect(destinations('U 盘插上去一直没反应。')).toEqual([]);
    expect(destinations('最近在练游泳，每周去三次。')).toEqual([]);
    expect(destinations("I'm going to Costco after work.")).toEqual([]);
    expect(destinations('Reports go to Finance@corp.example.com before the trip.')).toEqual([]);
  });

  it('is none for a trip for work, as the labels file it', () => {
    expect(destinations('下周二去武汉出差，帮我订周一晚上的酒店。')).toEqual([]);
    expect(destinations('Flying to Denver on May 4 for a client meeting.')).toEqual([]);
  });

  it('is no event the user skips (不去了 said of a party)', () => {
    expect(destinations('周五的聚餐不去了，太累。')).toEqual([]);
  });

  it('is nothing in a question, a hypothesis or someone else’s trip', () => {
    expect(destinations('去成都玩几天合适？')).toEqual([]);
    expect(destinations('如果去大理玩的话，住古城还是洱海边？')).toEqual([]);
    expect(destinations('Should we fly to Madrid or Lisbon?')).toEqual([]);
    expect(destinations('Last year we flew to Rome and it rained the whole time.')).toEqual([]);
  });
});
