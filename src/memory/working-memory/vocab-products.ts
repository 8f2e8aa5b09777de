/**
 * Known products and choices, grouped by the subject slot they fill: "switch to Caddy" sets `web server`.
 * Data only; extend it here. Names match case-insensitively as whole words, `exactNames` only as written
 * (they are also common English words: Go, Express, Yarn), or in lower case beside Chinese text, where an English
 * word is the product (yarn 不用了, 用 go 写), unless `asWrittenOnly` lists it (a cluster's node, the shell's echo).
 */

export interface ProductGroup {
  readonly subject: string;
  readonly names: readonly string[];
  readonly exactNames?: readonly string[];
  /** Exact names that stay common words even beside Chinese text (k8s 的 node, echo 一下): only as written. */
  readonly asWrittenOnly?: readonly string[];
  /** A number right after the name belongs to the value even without a dot (Windows 11, Ubuntu 22.04). */
  readonly numberedVersions?: boolean;
  /**
   * Other slots these products also fill: a message that sets one of them and drops one of these files the drop
   * under it (反向代理统一用 Caddy，HAProxy 不用了: HAProxy served as the reverse proxy).
   */
  readonly alsoFills?: readonly string[];
}

export const PRODUCT_GROUPS: readonly ProductGroup[] = [
  {
    // The servers that also stand in front of others as their reverse proxy (its own slot when a message names it).
    subject: 'web server', names: ['Nginx', 'Apache', 'Apache httpd', 'httpd', 'Caddy', 'OpenResty', 'Tengine', 'Lighttpd', 'IIS'],
    alsoFills: ['reverse proxy'],
  },
  // (Traefik is also a cluster's ingress controller, when a message names that slot.)
  { subject: 'web server', names: ['Traefik'], alsoFills: ['reverse proxy', 'ingress controller', 'load balancer'] },
  { subject: 'ingress controller', names: ['ingress-nginx', 'nginx-ingress', 'Contour', 'Kong Ingress', 'Emissary-ingress', 'HAProxy Ingress'] },
  // Application servers: behind a proxy, never one.
  { subject: 'web server', names: ['Tomcat', 'Jetty', 'Gunicorn', 'uWSGI', 'Uvicorn'] },
  { subject: 'load balancer', names: ['HAProxy', 'Envoy', 'ELB', 'ALB', 'NLB', 'LVS', 'MetalLB', 'SLB', 'CLB'], exactNames: ['F5'], alsoFills: ['web server', 'reverse proxy', 'ingress controller', 'API gateway'] },
  {
    subject: 'database',
    names: [
      'PostgreSQL', 'Postgres', 'MySQL', 'MariaDB', 'SQLite', 'Oracle', 'Oracle DB', 'SQL Server', 'MSSQL', 'MongoDB',
      'Mongo', 'TiDB', 'CockroachDB', 'Cassandra', 'DynamoDB', 'OceanBase', 'ClickHouse', 'Neo4j', 'InfluxDB',
      'TimescaleDB', 'DuckDB', 'PolarDB', '达梦', 'KingbaseES', '人大金仓', 'openGauss', 'GaussDB', 'Amazon RDS', 'RDS',
      'Cosmos DB', 'CosmosDB', 'CouchDB', 'Couchbase', 'HBase', 'ScyllaDB', 'SurrealDB', 'PlanetScale', 'Supabase',
      'Firebase', 'Firestore', 'Heroku Postgres', 'StarRocks', 'Greenplum', 'TDengine', 'IoTDB', 'BigQuery', 'Redshift'],
      exactNames: ['Aurora', 'Doris', 'Snowflake', 'Hive',
    ],
    // 数据仓库用的是 ClickHouse: named beside that slot word, a database is the warehouse.
    alsoFills: ['data warehouse'],
  },
  {
    subject: 'vector database', names: ['Milvus', 'Qdrant', 'Weaviate', 'Pinecone', 'ChromaDB', 'pgvector', 'Faiss',
    'LanceDB', 'Zilliz', 'voy'], exactNames: ['Chroma',
  ] },
  {
    subject: 'cache', names: ['Redis Cluster', 'Redis Sentinel', 'Redis', 'Memcached', 'Memcache', 'Valkey', 'KeyDB', 'Dragonfly', 'DragonflyDB',
    'Hazelcast', 'Ehcache', 'Varnish', 'ElastiCache',
  ] },
  {
    subject: 'message queue',
    names: [
      'Kafka', 'Apache Kafka', 'RabbitMQ', 'RocketMQ', 'ActiveMQ', 'Pulsar', 'Apache Pulsar', 'NATS', 'NATS JetStream', 'ZeroMQ', 'SQS',
      'Amazon SQS', 'Kinesis', 'NSQ', 'Redis Streams', 'EMQX', 'Mosquitto', 'Google Pub/Sub', 'Pub/Sub',
    ],
  },
  {
    subject: 'task queue', names: ['Sidekiq', 'BullMQ', 'RQ', 'Dramatiq', 'Resque', 'Hangfire'],
    exactNames: ['Celery', 'Temporal',
  ] },
  {
    subject: 'search engine', names: ['Elastic Cloud', 'Elasticsearch', 'OpenSearch', 'Solr', 'Meilisearch', 'Typesense', 'Algolia',
    'Manticore', 'ZincSearch', 'Vespa'], exactNames: ['Sphinx',
  ] },
  {
    subject: 'log collection', names: ['Filebeat', 'Fluentd', 'Fluent Bit', 'Logstash', 'Promtail', 'rsyslog',
    'syslog-ng', 'Logtail', 'iLogtail'], exactNames: ['Vector',
  ] },
  { subject: 'logging', names: ['ELK', 'Loki', 'Graylog', 'Splunk', 'SLS', 'CloudWatch Logs', 'Papertrail'] },
  {
    subject: 'monitoring', names: ['Prometheus', 'Grafana Cloud', 'Grafana', 'Zabbix', 'Nagios', 'Datadog', 'New Relic', 'CloudWatch',
    'Uptime Kuma', 'VictoriaMetrics', 'Thanos', 'Netdata', '夜莺', 'Icinga', 'Alertmanager'], exactNames: ['Nightingale',
  ] },
  { subject: 'error tracking', names: ['Bugsnag', 'Rollbar'], exactNames: ['Sentry'] },
  { subject: 'alerting', names: ['PagerDuty', 'Opsgenie', 'VictorOps', 'Splunk On-Call', 'incident.io', 'Squadcast'] },
  { subject: 'tracing', names: ['Jaeger', 'Zipkin', 'SkyWalking', 'OpenTelemetry', 'Pinpoint'], exactNames: ['Tempo'], asWrittenOnly: ['Tempo'] },
  {
    subject: 'CI',
    names: [
      'GitHub Actions', 'GitLab CI', 'GitLab CI/CD', 'GitLab Runner', 'Jenkins', 'CircleCI', 'Travis CI', 'Drone CI', 'Buildkite',
      'TeamCity', 'Azure Pipelines', 'Azure DevOps', 'Bitbucket Pipelines', 'AppVeyor', 'Gitea Actions', '云效'],
      exactNames: ['Travis', 'Drone', 'Woodpecker', 'Tekton', 'Bamboo',
    ],
    // (部署还是 Jenkins, 用 Jenkins 部署: a CI server the user deploys with.)
    alsoFills: ['deployment tool'],
  },
  { subject: 'deployment tool', names: ['Helm', 'Kustomize', 'Skaffold', 'Capistrano', 'Kamal', 'Deployer'], exactNames: ['Fabric'] },
  { subject: 'CD', names: ['Argo CD', 'ArgoCD', 'FluxCD', 'Spinnaker', 'Octopus Deploy'], exactNames: ['Flux'], asWrittenOnly: ['Flux'], alsoFills: ['deployment tool'] },
  {
    subject: 'infrastructure as code', names: ['Terraform', 'OpenTofu', 'Pulumi', 'CloudFormation', 'AWS CDK', 'CDK',
    'Crossplane'], exactNames: ['Bicep',
  ] },
  { subject: 'configuration management', names: ['Ansible', 'SaltStack'], exactNames: ['Chef', 'Puppet', 'Salt'], asWrittenOnly: ['Chef', 'Salt'], alsoFills: ['deployment tool'] },
  {
    subject: 'container orchestration',
    names: [
      'Kubernetes', 'K8s', 'K3s', 'MicroK8s', 'OpenShift', 'Docker Swarm', 'Nomad', 'ECS', 'EKS', 'GKE', 'AKS', 'ACK',
      'TKE', 'Rancher', 'Docker Compose', 'docker-compose'], exactNames: ['Swarm', 'Compose',
    ],
  },
  {
    subject: 'container runtime', names: ['Docker', 'Podman', 'containerd', 'CRI-O', 'LXC', 'LXD', 'OrbStack',
    'Colima',
  ] },
  { subject: 'service mesh', names: ['Istio', 'Linkerd', 'Consul Connect'] },
  { subject: 'service discovery', names: ['etcd', 'ZooKeeper', 'Nacos', 'Eureka'], exactNames: ['Consul'], alsoFills: ['config center'] },
  { subject: 'config center', names: ['Spring Cloud Config', 'AWS AppConfig'], exactNames: ['Apollo'] },
  {
    subject: 'API gateway', names: ['APISIX', 'Apache APISIX', 'Spring Cloud Gateway', 'KrakenD', 'AWS API Gateway', 'Amazon API Gateway'],
    exactNames: ['Kong', 'Tyk',
  ] },
  {
    subject: 'cloud provider',
    names: [
      'AWS', 'Amazon Web Services', 'Azure', 'Microsoft Azure', 'GCP', 'Google Cloud', 'Google Cloud Platform', '阿里云',
      'Aliyun', 'Alibaba Cloud', '腾讯云', 'Tencent Cloud', '华为云', 'Huawei Cloud', '百度云', '百度智能云', '火山引擎', '京东云', '天翼云',
      '移动云', 'UCloud', 'DigitalOcean', 'Linode', 'Akamai Cloud', 'Vultr', 'Hetzner', 'OVH', 'OVHcloud',
      'Oracle Cloud', 'IBM Cloud', 'Cloudflare Workers',
    ],
    // Named beside one of these slot words (DNS 服务商是阿里云), a cloud is that service's provider.
    alsoFills: ['DNS', 'CDN', 'object storage', 'email service', 'hosting'],
  },
  {
    subject: 'hosting', names: ['Vercel', 'Netlify', 'Heroku', 'Fly.io', 'Railway', 'GitHub Pages',
    'Cloudflare Pages', 'Render.com',
  ] },
  { subject: 'CDN', names: ['Akamai', 'Fastly', 'CloudFront', '七牛', '七牛云', '又拍云'] },
  // Cloudflare is a CDN first, and the DNS of many sites: named beside the word DNS it is that.
  { subject: 'CDN', names: ['Cloudflare'], alsoFills: ['DNS'] },
  { subject: 'vpn', names: ['WireGuard', 'OpenVPN', 'Tailscale', 'ZeroTier', 'Headscale', 'Netbird', 'strongSwan'] },
  { subject: 'container registry', names: ['Harbor', 'Docker Hub', 'GHCR', 'GitHub Container Registry', 'ECR', 'Amazon ECR', 'Quay', 'Quay.io', 'Artifact Registry', 'ACR', 'Azure Container Registry'] },
  { subject: 'DNS', names: ['Route 53', 'Route53', 'DNSPod', 'CoreDNS', 'PowerDNS', 'BIND', 'dnsmasq', 'Pi-hole', 'AdGuard Home', 'Unbound'] },
  { subject: 'hypervisor', names: ['Proxmox VE', 'Proxmox', 'VMware ESXi', 'ESXi', 'vSphere', 'Hyper-V', 'XCP-ng', 'XenServer', 'KVM'], numberedVersions: true },
  { subject: 'media server', names: ['Jellyfin', 'Plex', 'Emby', 'Plex Media Server'] },
  // Translation memory tools (computer-assisted translation).
  { subject: 'CAT tool', names: ['Trados', 'SDL Trados', 'Trados Studio', 'memoQ', 'Wordfast', 'Smartcat', 'MateCat', 'OmegaT', 'Phrase TMS', 'Memsource'] },
  {
    subject: 'object storage', names: ['S3', 'Amazon S3', 'MinIO', '阿里云 OSS', 'OSS', 'COS', '腾讯云 COS', 'OBS',
    'Cloudflare R2', 'R2', 'GCS', 'Google Cloud Storage', 'Azure Blob', 'Azure Blob Storage', 'SeaweedFS'],
    exactNames: ['Ceph',
  ] },
  {
    subject: 'framework',
    names: [
      'Django', 'Flask', 'FastAPI', 'Spring Boot', 'Spring Cloud', 'Koa', 'NestJS', 'Nest.js', 'Ruby on Rails',
      'Rails', 'Laravel', 'Beego', 'GoFrame', 'Kratos', 'go-zero', 'ASP.NET Core', 'ASP.NET', 'Sanic', 'Hono',
      'Quarkus', 'Micronaut', 'Actix', 'Actix Web', 'Axum', 'Symfony', 'ThinkPHP', 'Starlette', 'Litestar',
      'AdonisJS', 'Dubbo', 'LangChain', 'LlamaIndex',
    ],
    exactNames: ['Express', 'Express.js', 'Spring', 'Gin', 'Echo', 'Fiber', 'Phoenix', 'Tornado', 'Rocket', 'Fastify'],
    asWrittenOnly: ['Echo', 'Rocket'],
  },
  {
    subject: 'frontend framework',
    names: [
      'React', 'React.js', 'Vue', 'Vue.js', 'Vue 3', 'Vue3', 'Vue 2', 'Angular', 'Svelte', 'SvelteKit', 'Next.js',
      'NextJS', 'Nuxt', 'Nuxt.js', 'SolidJS', 'Solid.js', 'Preact', 'Qwik', 'jQuery', 'Ember.js', 'Alpine.js', 'htmx',
      'Gatsby',
    ],
    exactNames: ['Lit', 'Solid', 'Astro', 'Remix', 'Ember'],
    asWrittenOnly: ['Solid'],
  },
  {
    // (Utility and CSS frameworks are a slot of their own, as labellers file them: Tailwind beside a component library.)
    subject: 'CSS framework', names: ['Tailwind', 'Tailwind CSS', 'TailwindCSS', 'Bootstrap', 'Bulma', 'UnoCSS', 'CSS Modules'],
  },
  {
    subject: 'UI library', names: ['Ant Design', 'antd',
    'Element Plus', 'Element UI', 'Material UI', 'MUI', 'shadcn/ui', 'shadcn', 'Chakra UI', 'Vuetify', 'Naive UI',
    'Arco Design', 'Vant',
  ] },
  {
    subject: 'mobile framework', names: ['Flutter', 'React Native', 'uni-app', 'uniapp', 'Ionic',
    'Kotlin Multiplatform', 'SwiftUI', 'Jetpack Compose'], exactNames: ['Taro', 'Capacitor', 'Expo',
  ] },
  {
    subject: 'desktop framework', names: ['Tauri', 'PyQt', 'WPF', 'WinForms', 'GTK', 'wxWidgets'],
    exactNames: ['Electron', 'Qt',
  ] },
  {
    subject: 'programming language',
    names: [
      'Python', 'Java', 'JDK', 'OpenJDK', 'Golang', 'TypeScript', 'JavaScript', 'Kotlin', 'Ruby', 'PHP', 'C++', 'C#',
      'Scala', 'Elixir', 'Haskell', 'Lua', 'Clojure', 'Erlang', 'Perl', 'Zig', 'OCaml', 'F#', 'Objective-C',
      'Cangjie', '仓颉',
    ],
    exactNames: ['Go', 'Rust', 'Swift', 'Dart', 'Julia', 'Mojo'],
  },
  { subject: 'JavaScript runtime', names: ['Node.js', 'NodeJS', 'Deno'], exactNames: ['Bun', 'Node'], asWrittenOnly: ['Node'] },
  // The user's phone by its model (iPhone 15 Pro, Pixel 8): its number and a model word after it are the value. (Brands
  // that also make routers and laptops, 小米 AX9000, are left to the personal slot: 我的手机是小米14.)
  {
    subject: 'phone', names: ['iPhone', 'Google Pixel', 'Pixel', 'OnePlus', '一加', 'Huawei Mate', '华为 Mate', '华为Mate', 'Honor Magic', '荣耀 Magic', 'Nothing Phone'],
    numberedVersions: true,
  },
  {
    subject: 'os',
    names: [
      'macOS Tahoe', 'macOS Sequoia', 'macOS Sonoma', 'macOS Ventura', 'macOS Monterey', 'macOS Big Sur', 'macOS', 'Mac OS', 'Mac OS X', 'OS X', 'OSX', 'Windows', 'Win10', 'Win11', 'Windows Server', 'Ubuntu',
      'Ubuntu Server', 'Debian', 'CentOS', 'CentOS Stream', 'Fedora', 'Arch Linux', 'Manjaro', 'Linux Mint', 'RHEL',
      'Red Hat', 'Red Hat Enterprise Linux', 'Rocky Linux', 'AlmaLinux', 'Alpine', 'Alpine Linux', 'openSUSE', 'SUSE',
      'FreeBSD', 'OpenBSD', 'NixOS', 'Gentoo', 'Kali', 'Kali Linux', 'Pop!_OS', 'elementary OS', 'Linux', '统信UOS',
      'UOS', '麒麟', '银河麒麟', 'Kylin', 'Deepin', 'openEuler', 'Anolis OS', '龙蜥', 'iOS', 'iPadOS', 'Android', 'HarmonyOS',
      '鸿蒙', 'ChromeOS',
    ],
    exactNames: ['Arch', 'Rocky'],
    asWrittenOnly: ['Arch'],
    numberedVersions: true,
  },
  {
    subject: 'editor',
    names: [
      'VS Code', 'VSCode', 'Visual Studio Code', 'Vim', 'Neovim', 'NeoVim', 'nvim', 'Emacs', 'Sublime Text',
      'Sublime', 'IntelliJ IDEA', 'IntelliJ', 'PyCharm', 'WebStorm', 'GoLand', 'CLion', 'PhpStorm', 'RubyMine',
      'DataGrip', 'Xcode', 'Android Studio', 'Visual Studio', 'Notepad++', 'HBuilderX', 'Jupyter', 'JupyterLab',
      'Jupyter Notebook', 'TextMate', 'BBEdit',
    ],
    exactNames: [
      'Cursor', 'Zed', 'IDEA', 'Atom', 'Kate', 'Rider', 'Fleet', 'Eclipse', 'Helix', 'Nano', 'Windsurf', 'Trae',
    ],
  },
  {
    subject: 'package manager', names: ['npm', 'pnpm', 'pip', 'pipenv', 'conda', 'Miniconda', 'Anaconda', 'mamba',
    'Homebrew', 'NuGet', 'yum', 'dnf', 'pacman', 'Chocolatey', 'winget', 'vcpkg', 'Conan', 'CocoaPods', 'Swift Package Manager',
    'SwiftPM', 'Carthage'], exactNames: ['Yarn',
    'Poetry', 'uv', 'Cargo', 'Composer', 'apt', 'Scoop',
  ] },
  {
    subject: 'build tool', names: ['Maven', 'Gradle', 'Bazel', 'CMake', 'sbt', 'MSBuild'],
    exactNames: ['Make', 'Ninja', 'Meson', 'Ant',
  ] },
  // Monorepo tools are a slot of their own, as three of the four helper labels that name one file them.
  { subject: 'monorepo tool', names: ['Turborepo', 'Lerna'], exactNames: ['Nx'] },
  {
    // Bundlers fill the build tool slot: all five helper labellers who named Vite or webpack wrote it so (issue 19).
    subject: 'build tool', names: ['Vite', 'Webpack', 'esbuild', 'Turbopack', 'Rspack', 'Rolldown', 'SWC', 'tsup', 'Create React App'],
    exactNames: ['Rollup', 'Parcel', 'Babel', 'CRA',
  ] },
  // Deep-learning frameworks (a version after one is its own slot: PyTorch 2.1 → 2.4 sets `pytorch version`).
  { subject: 'ML framework', names: ['PyTorch', 'PyTorch Lightning', 'TensorFlow', 'Keras', 'PaddlePaddle', '飞桨', 'MindSpore', 'MXNet'], exactNames: ['JAX'] },
  {
    subject: 'test framework', names: ['Vitest', 'Jasmine', 'pytest', 'unittest', 'JUnit', 'JUnit 5', 'TestNG',
    'Cypress', 'Playwright', 'Selenium', 'Puppeteer', 'RSpec', 'PHPUnit', 'xUnit', 'NUnit', 'Testing Library'],
    exactNames: ['Jest', 'Mocha', 'Karma', 'Ava',
  ] },
  {
    subject: 'ORM', names: ['Prisma', 'TypeORM', 'Sequelize', 'SQLAlchemy', 'Hibernate', 'MyBatis', 'MyBatis-Plus',
    'Drizzle', 'Drizzle ORM', 'GORM', 'Django ORM', 'Entity Framework', 'EF Core', 'Mongoose', 'Knex', 'Peewee',
    'Tortoise ORM', 'JPA',
  ] },
  { subject: 'job scheduler', names: ['crontab', 'systemd timer', 'systemd timers', 'XXL-JOB', 'Quartz', 'Celery Beat', 'Kubernetes CronJob', 'anacron'], exactNames: ['cron'] },
  // A pool inside the application, and a pooler: a proxy of its own in front of the database (what labellers call it).
  { subject: 'connection pool', names: ['HikariCP', 'c3p0'], exactNames: ['Druid'] },
  { subject: 'connection pooler', names: ['PgBouncer', 'Pgpool-II', 'pgpool', 'ProxySQL', 'PgCat', 'Odyssey'] },
  { subject: 'migration tool', names: ['Alembic', 'Flyway', 'Liquibase', 'golang-migrate', 'dbmate', 'Sqitch', 'Prisma Migrate'], exactNames: ['Goose'] },
  { subject: 'date library', names: ['date-fns', 'Moment.js', 'Day.js', 'dayjs', 'Luxon', 'js-joda', 'Temporal API'], exactNames: ['Moment', 'Arrow', 'Pendulum'] },
  { subject: 'version control', names: ['Git', 'SVN', 'Subversion', 'Mercurial', 'Perforce'] },
  {
    subject: 'code hosting', names: ['GitHub Enterprise', 'GitHub', 'GitLab', 'Gitee', 'Bitbucket', 'Gitea', 'Gogs', 'Forgejo', 'Codeberg',
    'CODING',
  ] },
  {
    subject: 'browser', names: ['Chrome', 'Google Chrome', 'Firefox', 'Chromium', 'Vivaldi', 'Microsoft Edge',
    'Tor Browser', 'Arc browser'], exactNames: ['Edge', 'Safari', 'Brave', 'Opera',
  ] },
  {
    subject: 'shell', names: ['bash', 'zsh', 'Oh My Zsh', 'PowerShell', 'pwsh', 'Nushell', 'cmd.exe'],
    exactNames: ['Fish', 'fish shell',
  ] },
  {
    subject: 'terminal', names: ['iTerm2', 'iTerm', 'Windows Terminal', 'Alacritty', 'WezTerm', 'Ghostty', 'tmux'],
    exactNames: ['Kitty', 'Warp', 'Terminator', 'Tabby', 'Hyper',
  ] },
  {
    subject: 'deployment strategy',
    names: [
      'rolling update', 'rolling updates', 'rolling deployment', 'rolling release', 'rolling upgrade', 'blue-green',
      'blue/green', 'blue green', 'blue-green deployment', '蓝绿部署', '蓝绿发布', '蓝绿', '滚动更新', '滚动发布', '滚动升级', '灰度发布', '灰度',
      'canary', 'canary release', 'canary deployment', '金丝雀发布', '金丝雀', 'A/B testing', 'shadow deployment',
    ],
  },
  {
    subject: 'API style', names: ['RESTful', 'GraphQL', 'gRPC', 'tRPC', 'JSON-RPC', 'WebSocket', 'WebSockets', 'SSE',
    'Server-Sent Events'], exactNames: ['REST', 'SOAP',
  ] },
  {
    subject: 'architecture', names: ['microservices', 'microservice', '微服务', 'monolith', 'monolithic', '单体', '单体架构',
    'serverless', 'Serverless', '无服务器', 'modular monolith', 'event-driven', '事件驱动',
  ] },
  {
    subject: 'authentication', names: ['OAuth', 'OAuth2', 'OAuth 2.0', 'JWT', 'SAML', 'OIDC', 'OpenID Connect',
    'Keycloak', 'Auth0', 'Okta', 'LDAP', 'Active Directory', 'NextAuth', 'Auth.js', 'Casdoor', 'Authing', 'Cognito',
    'session cookies', 'Passkeys', 'passkey'], exactNames: ['Clerk',
  ] },
  {
    subject: 'payment provider', names: ['Stripe', 'PayPal', '支付宝', 'Alipay', '微信支付', 'WeChat Pay', 'Adyen',
    'Braintree', 'Lemon Squeezy', '银联', 'UnionPay'], exactNames: ['Paddle',
  ] },
  // A small business's tools (helper labellers' names for them, four or more times each).
  {
    subject: 'accounting software', names: ['QuickBooks', 'QuickBooks Online', 'Xero', 'NetSuite', 'FreshBooks', 'Zoho Books',
    '用友', '金蝶', '金蝶云星空', '金蝶精斗云', '金蝶KIS', '畅捷通'],
  },
  {
    subject: 'e-commerce platform', names: ['Shopify', 'WooCommerce', 'Magento', 'BigCommerce', 'PrestaShop', '有赞', '微店',
    '淘宝', '天猫', '拼多多', '抖店'], exactNames: ['Etsy'],
  },
  // Home and study (helper labellers' slots: the home broadband's provider, a thesis's reference manager).
  { subject: 'ISP', names: ['中国电信', '中国移动', '中国联通', '中国广电', '长城宽带', 'Comcast', 'Xfinity', 'Verizon Fios', 'AT&T Fiber', 'Virgin Media', 'Sky Broadband', 'BT Broadband', 'Starlink', 'Ziggo', 'KPN', 'Deutsche Telekom', 'Vodafone', 'Spectrum', 'Google Fiber'] },
  { subject: 'reference manager', names: ['Zotero', 'JabRef', 'Mendeley', 'EndNote', 'Paperpile', 'Citavi'] },
  { subject: 'POS system', names: ['客如云', '美团收银', '银豹', 'Lightspeed POS', 'Square POS'], exactNames: ['Toast', 'Clover'] },
  {
    subject: 'courier', names: ['顺丰', '顺丰速运', '中通', '圆通', '韵达', '申通', '极兔', '京东物流', '德邦', 'DHL', 'FedEx', 'USPS'],
    exactNames: ['EMS', 'UPS'],
  },
  { subject: 'delivery platform', names: ['美团外卖', '饿了么', 'Uber Eats', 'DoorDash', 'Deliveroo', 'Grubhub'] },
  {
    subject: 'experiment tracking', names: ['Weights & Biases', 'W&B', 'wandb', 'MLflow', 'TensorBoard', 'ClearML', 'Aim'],
    exactNames: ['Comet', 'Neptune'],
  },
  {
    subject: 'chat tool', names: ['Microsoft Teams', 'MS Teams', '钉钉', 'DingTalk', '飞书', 'Lark', 'Feishu', '企业微信',
    'WeCom', 'Telegram', 'Mattermost', 'Rocket.Chat', '腾讯会议', 'Google Meet'], exactNames: ['Slack', 'Discord', 'Zoom',
  ], alsoFills: ['alert channel'] },
  {
    subject: 'project management', names: ['Jira', 'Trello', 'Asana', 'ClickUp', 'Monday.com', '禅道', 'TAPD',
    'Teambition', 'YouTrack', 'Redmine'], exactNames: ['Linear', 'Basecamp',
  ] },
  {
    subject: 'documentation', names: ['Confluence', '语雀', '飞书文档', 'Docusaurus', 'MkDocs', 'VitePress',
    'GitBook', 'Sphinx docs', 'Storybook', 'Read the Docs', 'Swagger UI', 'Redoc'],
  },
  // Notes apps: blind labellers named the slot `note-taking app` or `notes app` (13 of 16), never documentation.
  { subject: 'note-taking app', names: ['Obsidian', 'Evernote', '印象笔记', 'OneNote', 'Logseq', 'Joplin', 'Apple Notes'], exactNames: ['Notion'], alsoFills: ['documentation'] },
  {
    subject: 'email service', names: ['SendGrid', 'Mailgun', 'Amazon SES', 'SES', 'Postmark', 'Mailchimp',
    'SparkPost', 'Google Workspace', 'Microsoft 365', 'Office 365', 'Exchange Online', 'Zoho Mail', '腾讯企业邮', '阿里邮箱', '阿里云邮件推送'], exactNames: ['Resend', 'Brevo',
  ] },
  {
    subject: 'data processing', names: ['Apache Spark', 'PySpark', 'Flink', 'Apache Flink', 'Hadoop', 'Apache Beam',
    'dbt', 'Trino'], exactNames: ['Spark', 'Dask', 'Ray', 'Pandas', 'Polars', 'Presto',
  ] },
  {
    subject: 'workflow orchestration', names: ['Airflow', 'Apache Airflow', 'Dagster', 'Argo Workflows',
    'DolphinScheduler', 'n8n', 'Zapier'], exactNames: ['Prefect', 'Luigi',
  ] },
  {
    subject: 'secrets management', names: ['HashiCorp Vault', 'AWS Secrets Manager', 'Secrets Manager', 'Doppler',
    '1Password', 'Bitwarden', 'SOPS', 'Sealed Secrets', 'Infisical'], exactNames: ['Vault',
  ] },
  {
    subject: 'model', names: ['GPT-4', 'GPT-4o', 'GPT-4.1', 'GPT-5', 'GPT-3.5', 'ChatGPT', 'Claude', 'Llama',
    'Llama 3', 'Qwen', 'Qwen2.5', 'Qwen3', '通义千问', 'DeepSeek', 'DeepSeek-R1', 'DeepSeek-V3', 'Mistral', 'Mixtral',
    'ChatGLM', 'GLM-4', '文心一言', 'Kimi', '豆包', 'Doubao', 'Phi-3', 'Gemma'], exactNames: ['Gemini',
  ] },
  {
    subject: 'embedding model', names: ['bge-m3', 'bge-large', 'bge-large-zh', 'bge-base', 'bge-small',
    'text-embedding-3-small', 'text-embedding-3-large', 'text-embedding-ada-002', 'm3e', 'gte-large', 'e5-large',
    'jina-embeddings',
  ] },
  {
    subject: 'reranker', names: ['bge-reranker', 'bge-reranker-large', 'bge-reranker-v2-m3', 'Cohere Rerank',
    'jina-reranker',
  ] },
  {
    subject: 'indentation', names: ['tabs', 'spaces', '2 spaces', '4 spaces', 'two spaces', 'four spaces', '两个空格',
    '四个空格', '2 个空格', '4 个空格', '8 个空格', '空格缩进',
  ],
    // 用 tab 缩进: the indentation is `tab` (a lower-case word only as written, never a browser's Tab).
    exactNames: ['tab'], asWrittenOnly: ['tab'] },
  // Linters and formatters are two slots (a project keeps ESLint and Prettier both); Ruff and Biome are both.
  {
    subject: 'linter', names: ['ESLint', 'flake8', 'Pylint', 'StandardJS', 'Airbnb style', 'Stylelint', 'golangci-lint',
    'RuboCop', 'Clippy', 'ShellCheck'],
  },
  // (A type checker is not a linter: "dropping mypy from the hooks" leaves the linter.)
  { subject: 'type checker', names: ['mypy', 'Pyright'] },
  { subject: 'linter', names: ['Ruff'], alsoFills: ['formatter'] },
  { subject: 'formatter', names: ['Prettier', 'gofmt', 'rustfmt', 'clang-format', 'isort', 'yapf', 'autopep8', 'dprint'], exactNames: ['Black'] },
  { subject: 'formatter', names: [], exactNames: ['Biome'], alsoFills: ['linter'] },
  {
    subject: 'BI tool', names: ['Metabase', 'Tableau', 'Power BI', 'PowerBI', 'Apache Superset', 'Superset', 'Looker', 'Looker Studio',
    'Redash', 'FineBI', 'Quick BI', 'QuickBI', '帆软', '观远'],
  },
  { subject: 'game engine', names: ['Unity', 'Unreal Engine', 'Unreal', 'UE5', 'UE4', 'Godot', 'Cocos Creator', 'Cocos2d-x', 'Bevy'] },
  {
    subject: 'state management', names: ['Redux', 'Redux Toolkit', 'Zustand', 'MobX', 'Pinia', 'Vuex', 'Recoil',
    'Jotai', 'XState', 'NgRx', 'Riverpod', 'flutter_bloc', 'GetX', 'TCA', 'The Composable Architecture',
  ] },
];

/**
 * Runtimes whose version is a slot of its own: "prod runs Python 3.13" sets `python version` = 3.13.
 * Keys are lower-case names as written; the value is the subject.
 */
export const RUNTIME_VERSION_SUBJECTS: Readonly<Record<string, string>> = {
  python: 'python version', python3: 'python version', cpython: 'python version',
  node: 'node version', 'node.js': 'node version', nodejs: 'node version',
  java: 'java version', jdk: 'java version', openjdk: 'java version', jre: 'java version',
  go: 'go version', golang: 'go version', ruby: 'ruby version', php: 'php version', '.net': '.net version',
  dotnet: '.net version', rust: 'rust version', kotlin: 'kotlin version', typescript: 'typescript version',
  deno: 'deno version', bun: 'bun version', perl: 'perl version', swift: 'swift version', scala: 'scala version',
  // A cluster's version is its own slot too (labellers: 升到 Kubernetes 1.30.4 → kubernetes version).
  kubernetes: 'kubernetes version', k8s: 'kubernetes version',
};
