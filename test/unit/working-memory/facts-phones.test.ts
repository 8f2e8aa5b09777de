/**
 * The user's phone by its model (issue 19: eleven blind labels of later rounds name a phone switched to or used):
 * a known model line with its number and edition word, dropped and replaced like any product; a failure on one sets
 * nothing, and a brand that also makes routers is left to the personal slot.
 */
import { describe, expect, it } from 'vitest';
import { facts } from './helpers.ts';

describe('phones by model', () => {
  it('reads a switch of phones, with the model number and its edition word', () => {
    expect(facts('上周把手机从 Pixel 6 换成 iPhone 16 Pro Max 了。')).toEqual(['phone≠Pixel 6', 'phone=iPhone 16 Pro Max']);
    expect(facts("I'm on a Pixel 8a these days, so Android steps please.")).toEqual(['phone=Pixel 8a']);
  });

  it('keeps an edition word with other numbered products too', () => {
    expect(facts('Our office PCs run Windows 11 Pro.')).toEqual(['os=Windows 11 Pro']);
  });

  it('reads nothing from a phone something fails on, or a router of a phone brand', () => {
    expect(facts('The checkout page freezes on my iPhone 12.')).toEqual([]);
    expect(facts('路由器用的小米 AX3000，信号一般。')).not.toContain('phone=小米');
  });
});
