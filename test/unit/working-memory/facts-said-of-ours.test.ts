/**
 * Setup said in the shapes the ninth helper batches found missing (issue 19): a product called "our <slot>", a
 * runtime named as the role of a lower-case name, the machine the user runs things on, what "we are on now", a
 * product on its way out, and an instruction about the answers that is no void topic. Examples are our own wording.
 */
import { describe, expect, it } from 'vitest';
import { deprecated, facts } from './helpers.ts';

describe('a product called the user’s own slot', () => {
  it('fills the slot named after "is our" / 是我们的', () => {
    expect(facts('Valkey is our cache these days.')).toEqual(['cache=Valkey']);
    expect(facts('MariaDB is our primary database.')).toEqual(['database=MariaDB']);
    expect(facts('NATS is our message queue and Valkey is our cache.')).toEqual(['message queue=NATS', 'cache=Valkey']);
    expect(facts('TiDB 是我们的主数据库。')).toEqual(['database=TiDB']);
  });

  it('needs the slot word: a product called something else sets nothing', () => {
    expect(facts('Valkey is the bottleneck right now.')).toEqual([]);
    expect(facts('Kafka 是我们的瓶颈。')).toEqual([]);
  });

  it('takes no role words for a value ("what we use as the cache")', () => {
    expect(facts('Valkey is what we use as the cache.')).toEqual(['cache=Valkey']);
  });
});

describe('a slot the user names with its own words', () => {
  it('takes a lower-case name given that role ("uses smol as the async runtime")', () => {
    expect(facts('The crawler uses smol as the async runtime.')).toEqual(['async runtime=smol']);
    expect(facts('We use it as the cache.')).toEqual([]);
  });

  it('knows storage and error tracking apart from object storage and a story of errors', () => {
    expect(facts('存储先用 GlusterFS，挂载点后面再定。')).toEqual(['storage=GlusterFS']);
    expect(facts('对象存储用 MinIO。')).toEqual(['object storage=MinIO']);
    expect(facts('We use GlitchTip as our error tracker.')).toEqual(['error tracking=GlitchTip']);
    expect(facts('存储空间快满了。')).toEqual([]);
  });

  it('files the port of "the DB" as the database’s', () => {
    expect(facts('The DB port is 6543 now.')).toEqual(['database port=6543']);
    expect(facts('The admin port is 9443.')).toEqual(['admin port=9443']);
  });

  it('reads 定 after a slot word as its value', () => {
    expect(facts('消息队列就定 RabbitMQ 了，下周开始接。')).toEqual(['message queue=RabbitMQ']);
  });
});

describe('what the user is on', () => {
  it('sets the editor or database they have been on', () => {
    expect(facts('My manager loves Emacs, but I have stayed with it: I’ve been on Neovim since 2019.')).toEqual(['editor=Neovim']);
    expect(facts("We've been on MariaDB for years.")).toEqual(['database=MariaDB']);
    expect(facts("I've been on holiday all week.")).toEqual([]);
  });

  it('reads a curly apostrophe as the straight one (phones type it)', () => {
    expect(facts('I’m on Helix these days.')).toEqual(['editor=Helix']);
    expect(facts('We don’t use RabbitMQ anymore.')).toEqual(['message queue≠RabbitMQ']);
  });

  it('sets the system the user runs things on', () => {
    expect(facts("I'm running Go 1.22.3 on Fedora 40, and the repo is in my home folder.")).toEqual([
      'go version=1.22.3',
      'os=Fedora 40',
    ]);
    expect(facts('We develop on macOS.')).toEqual(['os=macOS']);
  });

  it('reads 我们现在是 / 线上是 before a product as the setup', () => {
    expect(facts('我们现在是单机 PostgreSQL 15，要不要上读写分离？')).toEqual(['database=PostgreSQL 15']);
    expect(facts('我们线上是 Caddy 2.7。')).toEqual(['web server=Caddy 2.7']);
    expect(facts('我们现在是五个人的小团队。')).toEqual([]);
  });

  it('sets the router at home by its model, and no address for one', () => {
    expect(facts('家里路由器是 Netgear RAX50，信号一直不稳。')).toEqual(['router=Netgear RAX50']);
    expect(facts('家里路由器后台 192.168.8.1 进不去了。')).toEqual([]);
  });
});

describe('a product on its way out', () => {
  it('is dropped when it "is being dropped" or phased out', () => {
    expect(facts('Queues move to NATS; RabbitMQ is being dropped after the cutover.')).toEqual([
      'message queue=NATS',
      'message queue≠RabbitMQ',
    ]);
    expect(facts('Memcached is being phased out.')).toEqual(['cache≠Memcached']);
    expect(facts('The warning is going away after a restart.')).toEqual([]);
  });
});

describe('what the answers should no longer give', () => {
  it('is an instruction, not a void topic', () => {
    expect(deprecated('以后用 Go 写，不要再给 Python 版本了。')).toEqual([]);
    expect(deprecated('不要给我写长段落了。')).toEqual([]);
    expect(deprecated('写月报这个计划取消了。')).toEqual(['写月报这个计划']);
  });
});

describe('the answers’ language beside the code comments’', () => {
  it('keeps each where a message asks for both ("…但是代码里的 comments 保持英文")', () => {
    expect(facts('以后 answer 用中文就行，但是代码里的 comments 保持英文。')).toEqual([
      'answer language=Chinese',
      'code comment language=English',
    ]);
    expect(facts('回答用英文，不过 code 里的 comments 还是写中文。')).toEqual(['answer language=English', 'code comment language=Chinese']);
  });
});

describe('the user’s setup, said in the first clause of a Chinese sentence with a condition later', () => {
  it('stands: the condition leads what follows it', () => {
    expect(facts('旅行总预算定在 2 万元，超了的话就不去北海道了。')).toEqual(['budget=20000 CNY']);
    expect(facts('如果换成 Pulsar，就得重写消费者。')).toEqual([]);
    expect(facts('We’ll move to Pulsar, if the load keeps growing.')).toEqual([]);
  });
});

describe('a contact given for someone the user writes to', () => {
  it('is theirs, not the user’s', () => {
    expect(facts('帮我给物业写封邮件，邮箱是 WuYe.Service@Example.cn，说电梯又坏了。')).toEqual([]);
    expect(facts('帮我给物业写封邮件，我的邮箱是 Me.Li@Example.cn，让他们回复到这里。')).toEqual(['email=me.li@example.cn']);
  });
});

describe('things of the user’s own life', () => {
  it('reads a phone changed to, a camera, and a car with its model year', () => {
    expect(facts('手机换成 Pixel 9 了，旧的给我妈用。')).toEqual(['phone=Pixel 9']);
    expect(facts('我用的 camera 是 Sony A7C，镜头还在挑。')).toEqual(['camera=Sony A7C']);
    expect(facts('My car is a 2017 Mazda CX-5, about 90,000 km.')).toEqual(['car=2017 Mazda CX-5']);
  });

  it('takes no breed for a pet’s name (我家猫是布偶), and still a name said with 叫', () => {
    expect(facts('我家猫是布偶，最近老掉毛。')).toEqual([]);
    expect(facts('我家猫叫年糕。')).toEqual(['cat name=年糕']);
  });
});

describe('a medicine the user takes', () => {
  it('is set from a habit with a dose, a medicine’s kind, or a doctor, in either language', () => {
    expect(facts('医生让我每天早上吃一片二甲双胍。')).toEqual(['medication=二甲双胍']);
    expect(facts('我每天睡前吃一粒褪黑素，下周要去复查。')).toEqual(['medication=褪黑素']);
    expect(facts('我每天晚上吃降糖药。')).toEqual(['medication=降糖药']);
    expect(facts('I take levothyroxine every morning before breakfast.')).toEqual(['medication=levothyroxine']);
    expect(facts('The doctor put me on rosuvastatin 10mg.')).toEqual(['medication=rosuvastatin 10mg']);
  });

  it('is not a food eaten by the piece, a habit of another kind, nor one the user stopped', () => {
    expect(facts('我每天吃两颗鸡蛋，胆固醇会不会高？')).toEqual([]);
    expect(facts('I take the train every day.')).toEqual([]);
    expect(facts('I take piano lessons twice a week.')).toEqual([]);
    expect(facts('我不吃褪黑素了，医生说没必要。')).toEqual([]);
    expect(facts('医生让我每天早上吃一片药。')).toEqual([]);
  });
});

describe('more of the user’s setup', () => {
  it('reads the system the user’s own service runs on, and what the answers should assume', () => {
    expect(facts('Our API server is Fastify 4 on Rocky Linux 9.')).toEqual(['os=Rocky Linux 9']);
    expect(facts('When you write shell snippets, assume zsh on Fedora.')).toEqual(['shell=zsh', 'os=Fedora']);
    expect(facts('Please stop giving answers that assume Kafka.')).toEqual([]);
    expect(facts('Our docs mention the install steps on Windows.')).toEqual([]);
  });

  it('reads what everything is put behind as that product’s slot', () => {
    expect(facts('We’re putting everything behind Fastly now.')).toEqual(['CDN=Fastly']);
  });
});

describe('found by the eleventh helper batches', () => {
  it('takes no address for a value after a drop ("dev server 跑在 localhost:5173")', () => {
    expect(facts('打包工具刚从 Rollup 换到 esbuild，dev server 跑在 localhost:3000。')).toEqual([
      'build tool≠Rollup',
      'build tool=esbuild',
    ]);
    expect(facts('Node 16 is EOL for us, upgrade everything to 20.11.1.')).toEqual(['node version≠16', 'node version=20.11.1']);
  });

  it('reads 用的 + a name without the 的', () => {
    expect(facts('收银系统用的银豹。')).toEqual(['POS system=银豹']);
  });

  it('files no number of a shop or of a named contact as the user’s', () => {
    expect(facts('花店电话是 0571-8765 4321，帮我问问有没有向日葵。')).toEqual([]);
    expect(facts('包装盒以后找新供应商，联系人王经理，电话 139-0000-1111。')).toEqual([]);
    expect(facts('我的电话是 139-0000-1111。')).toEqual(['phone number=139-0000-1111']);
  });

  it('reads what the user’s API is, and the runtime of their analysis', () => {
    expect(facts('Our API is a Flask app on Debian 12.')).toEqual(['framework=Flask', 'os=Debian 12']);
    expect(facts('Our API is slow on Chrome.')).toEqual([]);
    expect(facts('I do my analysis in notebooks with Python 3.12.')).toEqual(['python version=3.12']);
  });

  it('reads a rent raised "to" an amount, and the router 用的', () => {
    expect(facts('The landlord is raising my rent to $2,150 in May.')).toEqual(['rent=2150 USD']);
    expect(facts('路由器用的华硕 RT-AX86U。')).toEqual(['router=华硕 RT-AX86U']);
  });

  it('reads the answers’ language with an object between the verb and it', () => {
    expect(facts('Please explain each step to me in Chinese.')).toEqual(['answer language=Chinese']);
    expect(facts('Please switch to English for the rest of this chat.')).toEqual(['answer language=English']);
  });

  it('reads a product asked for by name over another ("for bash rather than zsh")', () => {
    expect(facts('Give me the commands for zsh rather than bash.')).toEqual(['shell=zsh']);
    expect(facts('We need a client for Redis.')).toEqual([]);
  });

  it('files CSS frameworks, monorepo tools and type checkers in slots of their own', () => {
    expect(facts('Bulma 不用了，统一用 Tailwind。')).toEqual(['CSS framework≠Bulma', 'CSS framework=Tailwind']);
    expect(facts('组件库用 Element Plus。')).toEqual(['UI library=Element Plus']);
    expect(facts("We're dropping Lerna; Turborepo from now on.")).toEqual(['monorepo tool≠Lerna', 'monorepo tool=Turborepo']);
    expect(facts('We switched from mypy to Pyright.')).toEqual(['type checker≠mypy', 'type checker=Pyright']);
  });

  it('voids a baseline, an experiment or a prototype as a topic', () => {
    expect(deprecated('Forget the random-forest baseline, we go straight to gradient boosting.')).toEqual(['random-forest baseline']);
    expect(deprecated('Scrap the Pulsar experiment.')).toEqual(['Pulsar experiment']);
  });
});
