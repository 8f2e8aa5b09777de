/**
 * A diet (issue 19, a pass read from the helpers' batches): kept as the user wrote it in Chinese, as the labels'
 * conventions ask; never one said not to be the user's, nor a restaurant the user asks for. Our own wording.
 */
import { describe, expect, it } from 'vitest';
import { facts } from './helpers.ts';

describe('a diet', () => {
  it('keeps the Chinese word the user wrote, and reads keto', () => {
    expect(facts('我从上个月开始吃素，推荐菜谱别放肉。')).toEqual(['diet=吃素']);
    expect(facts('我现在只吃素食。')).toEqual(['diet=素食']);
    expect(facts('我是蛋奶素，鸡蛋牛奶可以。')).toEqual(['diet=蛋奶素']);
    expect(facts("I'm on keto now, so keep the recipes low in carbs.")).toEqual(['diet=keto']);
    expect(facts("I'm vegetarian, so no meat please.")).toEqual(['diet=vegetarian']);
  });

  it('is none when the user says it is not theirs, or only asks for such a place', () => {
    expect(facts("I'm not vegan, I just like oat milk.")).toEqual([]);
    expect(facts('我不吃素，但最近想少吃点红肉。')).toEqual([]);
    expect(facts('周末帮我找一家素食餐厅。')).toEqual([]);
  });
});
