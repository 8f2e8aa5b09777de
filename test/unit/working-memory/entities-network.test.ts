import { describe, expect, it } from 'vitest';
import { compressIpv6 } from '../../../src/memory/working-memory/entities-network.ts';
import { entities, values } from './helpers.ts';

describe('IPv4 and IPv6', () => {
  it('finds IPv4 addresses in Chinese and English text', () => {
    expect(entities('网关是192.168.1.1，备用 10.0.0.254。')).toEqual(['ipv4=192.168.1.1', 'ipv4=10.0.0.254']);
    expect(entities('Ping 8.8.8.8 and 1.1.1.1 failed.')).toEqual(['ipv4=8.8.8.8', 'ipv4=1.1.1.1']);
  });

  it('rejects octets over 255 and longer dotted runs', () => {
    expect(values('address 300.1.1.1 is wrong', 'ipv4')).toEqual([]);
    expect(values('see 1.2.3.4.5', 'ipv4')).toEqual([]);
  });

  it('reads a dotted quad as a version only when the text says version / 版本', () => {
    expect(entities('固件版本 4.2.0.17 有问题')).toEqual(['version=4.2.0.17']);
    expect(entities('upgrade to version 5.4.0.12 today')).toContain('version=5.4.0.12');
    expect(entities('host 5.4.0.12 is down')).toEqual(['ipv4=5.4.0.12']);
  });

  it('compresses IPv6 per RFC 5952 and lower-cases it', () => {
    expect(values('地址 2001:0DB8:0000:0000:0000:0000:0000:0001 不通', 'ipv6')).toEqual(['2001:db8::1']);
    expect(values('link-local FE80::0202:B3FF:FE1E:8329.', 'ipv6')).toEqual(['fe80::202:b3ff:fe1e:8329']);
    expect(compressIpv6('2001:db8:0:0:1:0:0:1')).toBe('2001:db8::1:0:0:1');
    expect(compressIpv6('2001:db8:0:1:1:1:1:1')).toBe('2001:db8:0:1:1:1:1:1');
    expect(compressIpv6('0:0:0:0:0:0:0:0')).toBe('::');
    expect(compressIpv6('::ffff:192.168.1.1')).toBe('::ffff:192.168.1.1');
  });

  it('does not take times, MAC addresses or C++ scopes for IPv6', () => {
    expect(values('at 10:30:00 the job ran', 'ipv6')).toEqual([]);
    expect(values('MAC 00:1a:2b:3c:4d:5e', 'ipv6')).toEqual([]);
    expect(values('std::vector<int>', 'ipv6')).toEqual([]);
  });
});

describe('host:port, URLs, e-mails', () => {
  it('keeps host:port as one hostport and nothing inside it', () => {
    expect(entities('后端是172.16.8.9:9000，挂了')).toEqual(['hostport=172.16.8.9:9000']);
    expect(entities('redis on cache.internal:6379 and db:5432')).toEqual([
      'hostport=cache.internal:6379',
      'hostport=db:5432',
    ]);
    expect(entities('listen on [2001:DB8::1]:8443')).toEqual(['hostport=[2001:db8::1]:8443']);
    expect(entities('curl localhost:3000')).toEqual(['hostport=localhost:3000']);
  });

  it('ends a host:port at the full stop that ends its sentence, but not inside a longer dotted run', () => {
    expect(entities('The broker is at mq.lab.lan:5672.')).toEqual(['hostport=mq.lab.lan:5672']);
    expect(entities('Point it at 192.168.7.20:8081. Then restart.')).toEqual(['hostport=192.168.7.20:8081']);
    expect(entities('Try gitea:3000.')).toEqual(['hostport=gitea:3000']);
    expect(values('the build 10.0.0.5:8080.1 failed', 'hostport')).toEqual([]);
  });

  it('does not read file:line, labels or image tags as host:port', () => {
    expect(values('Error at main.py:42 and utils.ts:10', 'hostport')).toEqual([]);
    expect(values('line:120 and port:8080', 'hostport')).toEqual([]);
    expect(values('image node:20 and redis:7', 'hostport')).toEqual([]);
  });

  it('keeps a URL as written, without the punctuation after it, and nothing nested', () => {
    expect(entities('看 http://10.1.2.3:8080/v1/health，然后重启')).toEqual(['url=http://10.1.2.3:8080/v1/health']);
    expect(entities('Docs: https://example.com/a?b=1&c=2. Thanks')).toEqual(['url=https://example.com/a?b=1&c=2']);
    expect(entities('(see https://en.wikipedia.org/wiki/Rust_(programming_language))')).toEqual([
      'url=https://en.wikipedia.org/wiki/Rust_(programming_language)',
    ]);
    expect(entities('visit www.example.org/help')).toEqual(['url=www.example.org/help']);
  });

  it('lower-cases e-mails and does not split them', () => {
    expect(entities('邮件发给 Zhang.San@Example.COM 吧')).toEqual(['email=zhang.san@example.com']);
    expect(entities('mail ops+alerts@corp.example.io.')).toEqual(['email=ops+alerts@corp.example.io']);
  });
});

describe('paths', () => {
  it('finds Unix, home and Windows paths', () => {
    expect(values('配置在 /etc/haproxy/haproxy.cfg 里', 'path')).toEqual(['/etc/haproxy/haproxy.cfg']);
    expect(values('backups under ~/backups/db.', 'path')).toEqual(['~/backups/db']);
    expect(values(String.raw`日志在 C:\Users\me\logs\app.log`, 'path')).toEqual([String.raw`C:\Users\me\logs\app.log`]);
    expect(values('open D:/projects/demo/main.py now', 'path')).toEqual(['D:/projects/demo/main.py']);
  });

  it('does not take fractions, units, relative paths or closing tags for paths', () => {
    for (const text of ['and/or', '3/4 of them', '100 km/h', '50 次/秒', './run.sh', '</div>', 'github.com/a/b']) {
      expect(values(text, 'path')).toEqual([]);
    }
  });
});
