/**
 * The scripted 30-turn conversation of `bench:prefill`: Chinese and English, short and long messages, code,
 * and back-references, the mix a chat really has. Written for this benchmark (no dataset).
 */
export const PREFILL_CONVERSATION: readonly string[] = [
  '帮我写一个Python函数，把列表里的奇数平方后加到新列表里。',
  '如果输入是[1,2,3,4,5]，输出应该是什么？',
  '改成只处理正数，负数跳过。',
  'Now explain the time complexity of that function in one paragraph.',
  '我们的服务器是 192.168.1.20，上面跑着 Nginx，端口 8080。',
  'Why would a reverse proxy return 502 Bad Gateway intermittently?',
  '刚才说的第二种原因怎么排查？给我具体命令。',
  'Here is the log:\n```\n2026/11/30 10:02:11 [error] 1234#0: *88 upstream timed out (110: Connection timed out) while reading response header from upstream, client: 10.0.0.7, server: api.example.com, request: "GET /v1/items HTTP/1.1", upstream: "http://127.0.0.1:9000/v1/items"\n```',
  '超时设置应该改成多少比较合适？',
  'Write the nginx config block with proxy_read_timeout set to 60s.',
  '算了，我们还是用 Apache 吧，同样的配置怎么写？',
  'Does Apache need mod_proxy_http for that?',
  '顺便问一下，怎么看 Apache 当前加载了哪些模块？',
  'Summarise what we changed so far in three bullet points.',
  '换个话题：用 TypeScript 写一个防抖函数 debounce。',
  'Add a cancel() method to the function above.',
  '这个函数在 React 组件里用有什么要注意的？',
  'Show a usage example with useEffect and cleanup.',
  '如果我想要 leading edge 触发呢？',
  'What is the difference between debounce and throttle, briefly?',
  '我的订单号是 #A-20261130-7781，物流三天没更新了，怎么写投诉邮件？',
  'Make the email more polite and shorter.',
  '用中文再写一版。',
  'Translate the last paragraph into English.',
  '回到最开始的 Python 函数，能不能用 filter 和 map 改写？',
  'Which version is faster and why?',
  '给上面的函数写三个 pytest 测试用例。',
  'Add a test for an empty list.',
  '最后，帮我把今天聊的内容整理成一份待办清单。',
  'Thanks! One more: how do I export this conversation?',
];

/**
 * For the `layered` strategy: the same conversation, then questions whose answers were said long before and
 * have left the recent turns, so they need retrieval and working memory.
 */
export const RECALL_QUESTIONS: readonly string[] = [
  '我们的服务器 IP 是多少来着？',
  'What web server did we settle on in the end, and on which port?',
  '那个订单号再发我一下。',
  'What did we name the Python function at the very beginning?',
];
