"""The Attention (home) page."""

EN = {
    "home.title": "Multi-head attention, head by head",
    "home.intro": "Each head projects the tokens into its own queries, keys and values "
    "(d_k = {d_k} dimensions), scores every query against every key, and turns each row of "
    "scores into weights with a softmax. Row i shows where token i looks; every row sums to 1.",
    "home.intro_additive": "Scores here are additive (Bahdanau): v^T tanh(W_q q + W_k k), "
    "computed per head.",
    "home.random_note": "The weights are random (seed {seed}), not trained: the patterns show "
    "the arithmetic, not meaning. See the pretrained page for trained heads.",
    "home.colour_scale": "Colour scale",
    "home.scale.shared": "Shared by all heads",
    "home.scale.per_head": "Per head",
    "home.palette": "Palette",
    "home.heads": "Attention weights of each head",
    "home.head_title": "head {h}",
    "home.mean": "Mean over the {n} heads",
    "home.mean_caption": "The average of the heads' weights: what a single-head summary would "
    "show, and why looking at the heads one by one reveals more.",
    "home.causal_note": "Causal mask: the upper triangle is exactly 0.",
    "home.query": "query",
    "home.key": "key",
    "home.weight": "weight",
    "home.stats": "Head statistics",
    "home.stats_caption": "Means over the query rows. Entropy in nats (0 = one key only, "
    "ln T = {max_entropy:.3f} = uniform). Mean distance: how far a head looks, in tokens "
    "(short- vs long-range heads). Self / previous / first: the share of weight on the token "
    "itself, the one before it, and the first token.",
    "home.col.head": "head",
    "home.col.entropy": "entropy (nats)",
    "home.col.max_weight": "max weight",
    "home.col.mean_distance": "mean distance",
    "home.col.self_share": "on self",
    "home.col.prev_share": "on previous",
    "home.col.first_share": "on first",
    "home.col.kind": "looks like",
    "home.kind.self": "self",
    "home.kind.prev": "previous token",
    "home.kind.first": "first token",
    "home.kind.broad": "broad (near uniform)",
    "home.kind.mixed": "mixed",
    "home.similarity": "Head similarity",
    "home.similarity_caption": "1 − Jensen–Shannon divergence (bits) between two heads' rows, "
    "averaged over queries: 1 = the same pattern, 0 = no key in common.",
    "home.similarity_value": "similarity",
    "home.downloads": "Downloads",
    "home.download_csv": "Weights (CSV, long form)",
    "home.download_json": "Whole trace (JSON)",
    "home.download_help": "PNG: use the camera icon in each chart's toolbar.",
}

ZH = {
    "home.title": "多头注意力,逐头查看",
    "home.intro": "每个头把标记投影成自己的查询、键和值 (d_k = {d_k} 维),用每个查询对所有键打分,"
    "再用 softmax 把每行得分变成权重。第 i 行表示标记 i 关注哪里;每行之和为 1。",
    "home.intro_additive": "这里的得分是加性注意力 (Bahdanau):v^T tanh(W_q q + W_k k),每个头单独计算。",
    "home.random_note": "权重是随机的 (种子 {seed}),没有经过训练:图案展示的是计算过程,而不是语义。"
    "训练过的头请看“预训练注意力头”页面。",
    "home.colour_scale": "颜色刻度",
    "home.scale.shared": "所有头共用",
    "home.scale.per_head": "每个头单独",
    "home.palette": "配色",
    "home.heads": "每个头的注意力权重",
    "home.head_title": "头 {h}",
    "home.mean": "{n} 个头的平均",
    "home.mean_caption": "所有头权重的平均:这是单头摘要会显示的内容,也说明了为什么逐个查看头能看到更多。",
    "home.causal_note": "因果掩码:上三角恰好为 0。",
    "home.query": "查询",
    "home.key": "键",
    "home.weight": "权重",
    "home.stats": "注意力头统计",
    "home.stats_caption": "对所有查询行取平均。熵以奈特为单位 (0 = 只看一个键,ln T = {max_entropy:.3f} = 均匀分布)。"
    "平均距离:一个头看得多远,以标记数计 (短程头与长程头)。自身 / 前一个 / 第一个:权重落在标记自身、前一个标记和第一个标记上的比例。",
    "home.col.head": "头",
    "home.col.entropy": "熵 (奈特)",
    "home.col.max_weight": "最大权重",
    "home.col.mean_distance": "平均距离",
    "home.col.self_share": "自身",
    "home.col.prev_share": "前一个",
    "home.col.first_share": "第一个",
    "home.col.kind": "类型",
    "home.kind.self": "关注自身",
    "home.kind.prev": "关注前一个标记",
    "home.kind.first": "关注第一个标记",
    "home.kind.broad": "广泛 (接近均匀)",
    "home.kind.mixed": "混合",
    "home.similarity": "注意力头相似度",
    "home.similarity_caption": "1 − 两个头各行之间的 Jensen–Shannon 散度 (比特),对所有查询取平均:1 = 图案相同,0 = 没有共同的键。",
    "home.similarity_value": "相似度",
    "home.downloads": "下载",
    "home.download_csv": "权重 (CSV,长表)",
    "home.download_json": "完整计算过程 (JSON)",
    "home.download_help": "PNG:点击每张图工具栏中的相机图标。",
}
