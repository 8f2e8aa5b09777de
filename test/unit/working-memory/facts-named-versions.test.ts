/**
 * Versions of tools the product list does not name (issue 19): said with the word version, or in a clause that gives
 * only the version after a clause that named the tool. Kinds of thing (a driver, firmware), an address and a number
 * without a dot set nothing. Our own wording.
 */
import { describe, expect, it } from 'vitest';
import { facts } from './helpers.ts';

const versions = (text: string): string[] => facts(text).filter((f) => / version[=≠]/.test(f));

describe('a version of a tool the vocabulary does not know', () => {
  it('sets <name> version when the word version ties it to the name', () => {
    expect(versions('helm 版本是 v3.14.2，别用 v2 的写法。')).toEqual(['helm version=v3.14.2']);
    expect(versions('The Gradle version is pinned to 8.7.1 on every runner.')).toEqual(['gradle version=8.7.1']);
    expect(versions('JAX 的版本锁在 0.4.26。')).toEqual(['jax version=0.4.26']);
  });

  it('takes the name from the clause before when a clause gives only the version', () => {
    expect(versions('推理服务用 vLLM 跑，版本定在 0.4.2。')).toEqual(['vllm version=0.4.2']);
    // A runtime's version goes to its own slot.
    expect(versions('新的网关用 Rust 写，版本锁 1.77.2。')).toEqual(['rust version=1.77.2']);
  });

  it('is none for a kind of thing, an address, or a number without a dot', () => {
    expect(versions('显卡 driver 版本 535.104.05，先别升级。')).toEqual([]);
    expect(versions('周报发到 ops@team.example.org，版本是 2.1.0 的那份。')).toEqual([]);
    expect(versions('接口的 API 版本是 v2。')).toEqual([]);
  });
});
