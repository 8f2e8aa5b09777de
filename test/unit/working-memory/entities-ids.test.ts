import { describe, expect, it } from 'vitest';
import { entities, values } from './helpers.ts';

describe('order and ticket numbers', () => {
  it('drops the label words and keeps # as written', () => {
    expect(values('工单 #45821 还没人处理', 'order_id')).toEqual(['#45821']);
    expect(values('订单号：202603041234567，金额 88 元', 'order_id')).toEqual(['202603041234567']);
    expect(values('my Order ID is A1-77821', 'order_id')).toEqual(['A1-77821']);
    expect(values('ticket INC-2231 is stuck', 'order_id')).toEqual(['INC-2231']);
    expect(values('the order #778812 shipped', 'order_id')).toEqual(['#778812']);
    // A # before letters is part of the number too; a # standing alone is a label word.
    expect(values('订单 #KD-2031-44120 改地址了', 'order_id')).toEqual(['#KD-2031-44120']);
    expect(values('ticket # 45821 is stuck', 'order_id')).toEqual(['45821']);
    expect(values('快递单号 SF1402837465521', 'order_id')).toEqual(['SF1402837465521']);
  });

  it('finds ticket-shaped codes without a label, but not standards', () => {
    expect(values('see JIRA-4521 and #90017', 'order_id')).toEqual(['JIRA-4521', '#90017']);
    expect(values('ISO-8601, SHA-256, CVE-2024-3094, UTF-8', 'order_id')).toEqual([]);
  });

  it('needs a digit after a label', () => {
    expect(values('in order to fix it, track the order status', 'order_id')).toEqual([]);
  });
});

describe('phone numbers', () => {
  it('keeps them as written', () => {
    expect(values('手机 138 0013 8000，座机 0755-86013388', 'phone')).toEqual(['138 0013 8000', '0755-86013388']);
    expect(values('客服 400-820-8820', 'phone')).toEqual(['400-820-8820']);
    expect(values('Call +1 (415) 555-0132 or 415-555-0199.', 'phone')).toEqual(['+1 (415) 555-0132', '415-555-0199']);
    expect(values('WhatsApp: +44 20 7946 0958', 'phone')).toEqual(['+44 20 7946 0958']);
    expect(values('My mobile is +44 7911 123456.', 'phone')).toEqual(['+44 7911 123456']);
    expect(values('我的号码是13912345678', 'phone')).toEqual(['13912345678']);
  });

  it('does not read dates or order numbers as phones', () => {
    expect(entities('订单 PO-20251118-4410 于 2025-11-18 发货')).toEqual([
      'order_id=PO-20251118-4410',
      'date=2025-11-18',
    ]);
  });
});

describe('versions', () => {
  it('needs a dot or a leading v, and keeps the text as written', () => {
    expect(values('Bumped helm to v3.14.0', 'version')).toEqual(['v3.14.0']);
    expect(values('Python 3.10 and 3.12', 'version')).toEqual(['3.10', '3.12']);
    expect(values('回退到 v2，再试 2.0.1-beta.3', 'version')).toEqual(['v2', '2.0.1-beta.3']);
    expect(values('Windows 11 and Node 20', 'version')).toEqual([]);
  });

  it('leaves quantities and names alone', () => {
    for (const text of [
      'SLA 99.95%',
      'took 1.5 s',
      '3.5 GB of RAM',
      '评分 4.5 分',
      'Qwen2.5-0.5B',
      'GPT-4.1',
      '1.5倍速',
    ]) {
      expect(values(text, 'version')).toEqual([]);
    }
    expect(values('把 Python 从 3.9 升级到 3.12', 'version')).toEqual(['3.9', '3.12']);
  });
});

describe('amounts', () => {
  it('writes <number> <ISO currency> without separators', () => {
    expect(values('price 是 ¥8,800，打折后 7,499 元', 'amount')).toEqual(['8800 CNY', '7499 CNY']);
    expect(values('预算3千元，最多五十万元', 'amount')).toEqual(['3000 CNY', '500000 CNY']);
    expect(values('It costs €49.99, or USD 500, roughly $5k.', 'amount')).toEqual(['49.99 EUR', '500 USD', '5000 USD']);
    expect(values('大概 800 美元，或者 2 万日元', 'amount')).toEqual(['800 USD', '20000 JPY']);
    expect(values('HK$50 and £20 and 100 euros', 'amount')).toEqual(['50 HKD', '20 GBP', '100 EUR']);
    expect(values('1.5万元的预算', 'amount')).toEqual(['15000 CNY']);
  });

  it("reads won as the currency, not in a contraction (version 2.40 won't start)", () => {
    expect(values('The ticket was 30000 won.', 'amount')).toEqual(['30000 KRW']);
    expect(values("Firmware 2.40 won't boot on the new board.", 'amount')).toEqual([]);
    expect(values("Firmware 2.40 won't boot on the new board.", 'version')).toEqual(['2.40']);
  });

  it('reads 块 as yuan only when it is money', () => {
    expect(values('运费 12 块，买了 3块硬盘', 'amount')).toEqual(['12 CNY']);
    expect(values('两千块钱左右', 'amount')).toEqual(['2000 CNY']);
  });

  it('takes a bare 万 as yuan only in a clause about money', () => {
    expect(values('本金 10万，年化 3.5%', 'amount')).toEqual(['100000 CNY']);
    expect(values('用户量 10万', 'amount')).toEqual([]);
  });

  it('needs a currency', () => {
    expect(values('we have 800 users and 3,000 requests', 'amount')).toEqual([]);
  });
});
