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
}
