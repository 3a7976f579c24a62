"""The Attention (home) page."""

EN = {
    "attention.title": "Multi-head attention, head by head",
    "attention.intro": "Each head projects the tokens into its own queries, keys and values "
    "(d_k = {d_k} dimensions), scores every query against every key, and turns each row of "
    "scores into weights with a softmax. Row i shows where token i looks; every row sums to 1.",
    "attention.intro_additive": "Scores here are additive (Bahdanau): v^T tanh(W_q q + W_k k), "
    "computed per head.",
    "attention.random_note": "The weights are random (seed {seed}), not trained: the patterns show "
    "the arithmetic, not meaning. See the pretrained page for trained heads.",
    "attention.colour_scale": "Colour scale",
    "attention.scale.shared": "Shared by all heads",
    "attention.scale.per_head": "Per head",
    "attention.palette": "Palette",
    "attention.tab.heads": "Every head",
    "attention.tab.mean": "Mean over heads",
    "attention.tab.stats": "Statistics",
    "attention.tab.similarity": "Similarity",
    "attention.heads": "Attention weights of each head",
    "attention.mean": "Mean over the {n} heads",
    "attention.mean_caption": "The average of the heads' weights: a head-averaged summary, which "
    "can hide patterns that the heads show one by one.",
    "attention.causal_note": "Causal mask: the upper triangle is exactly 0.",
    "attention.per_head_note": "Per head: each head's colours run from 0 to its own largest weight, given in brackets after its title; the colour bar is the share of that largest weight. Colours are not comparable across heads.",
    "attention.full_head": "Head drawn token by token",
    "attention.long_view": "A long text: show",
    "attention.long_view.head": "One head, every token",
    "attention.long_view.blocks": "Every head, as block means",
    "attention.query": "query",
    "attention.key": "key",
    "attention.weight": "weight",
    "attention.stats": "Head statistics",
    "attention.stats_caption": "Means over the query rows. Entropy in nats: 0 = one key only, "
    "{uniform:.3f} = uniform over the keys each row may see (the mean of ln(visible keys): ln T "
    "without a mask, ln(i + 1) for row i under the causal mask). Mean distance: how far a head looks, in tokens "
    "(short- vs long-range heads). Self / previous / next / first: the share of weight on the token "
    "itself, the one before it, the one after it, and the first token, each over every row (the "
    "first row has no previous token and the last no next one: they count 0 there); a head whose "
    "share on one of them is at least 0.5 is named after it.",
    "attention.similarity": "Head similarity",
    "attention.similarity_caption": "1 − Jensen–Shannon divergence (bits) between two heads' rows, "
    "averaged over queries: 1 = the same pattern, 0 = no key in common.",
    "attention.similarity_value": "similarity",
    "attention.downloads": "Downloads",
    "attention.download_csv": "Weights (CSV, long form)",
    "attention.download_json": "Whole trace (JSON)",
    "attention.download_help": "PNG: use the camera icon in each chart's toolbar.",
}

ZH = {
    "attention.title": "多头注意力,逐头查看",
    "attention.intro": "每个头把词元投影成自己的查询、键和值 (d_k = {d_k} 维),用每个查询对所有键打分,"
    "再用 softmax 把每行得分变成权重。第 i 行表示词元 i 关注哪里;每行之和为 1。",
    "attention.intro_additive": "这里的得分是加性注意力 (Bahdanau):v^T tanh(W_q q + W_k k),每个头单独计算。",
    "attention.random_note": "权重是随机的 (种子 {seed}),没有经过训练:图案展示的是计算过程,而不是语义。"
    "训练过的头请看“预训练注意力头”页面。",
    "attention.colour_scale": "颜色刻度",
    "attention.scale.shared": "所有头共用",
    "attention.scale.per_head": "每个头单独",
    "attention.palette": "配色",
    "attention.tab.heads": "每个头",
    "attention.tab.mean": "所有头的平均",
    "attention.tab.stats": "统计",
    "attention.tab.similarity": "相似度",
    "attention.heads": "每个头的注意力权重",
    "attention.mean": "{n} 个头的平均",
    "attention.mean_caption": "所有头权重的平均:对各头取平均的摘要,可能掩盖逐个查看头时能看到的图案。",
    "attention.causal_note": "因果掩码:上三角恰好为 0。",
    "attention.per_head_note": "每个头单独:每个头的颜色从 0 到它自己的最大权重(写在标题后的括号里);颜色条表示占该最大权重的比例。不同头之间的颜色不可比较。",
    "attention.full_head": "逐词元显示的头",
    "attention.long_view": "长文本:显示",
    "attention.long_view.head": "一个头,每个词元",
    "attention.long_view.blocks": "所有头,按块平均",
    "attention.query": "查询",
    "attention.key": "键",
    "attention.weight": "权重",
    "attention.stats": "注意力头统计",
    "attention.stats_caption": "对所有查询行取平均。熵以奈特为单位:0 = 只看一个键,{uniform:.3f} = 在每行可见的键上均匀分布 (各行 ln(可见键数) 的平均:无掩码时为 ln T,因果掩码下第 i 行为 ln(i + 1))。"
    "平均距离:一个头看得多远,以词元数计 (短程头与长程头)。自身 / 前一个 / 后一个 / 第一个:权重落在词元自身、前一个词元、后一个词元和第一个词元上的比例,"
    "都对所有行取平均 (第一行没有前一个词元,最后一行没有后一个词元:在那里记为 0);某一比例至少为 0.5 的头以它命名。",
    "attention.similarity": "注意力头相似度",
    "attention.similarity_caption": "1 − 两个头各行之间的 Jensen–Shannon 散度 (比特),对所有查询取平均:1 = 图案相同,0 = 没有共同的键。",
    "attention.similarity_value": "相似度",
    "attention.downloads": "下载",
    "attention.download_csv": "权重 (CSV,长表)",
    "attention.download_json": "完整计算过程 (JSON)",
    "attention.download_help": "PNG:点击每张图工具栏中的相机图标。",
}
