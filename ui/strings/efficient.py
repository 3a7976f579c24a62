"""The Efficient attention page."""

EN = {
    "nav.efficient": "Efficient attention",
    "efficient.title": "Efficient attention: how today's language models attend",
    "efficient.intro": "The attention of 2017 is still the heart of open models such as Llama 3, "
    "Mistral 7B and Qwen2, with a few changes that make long texts affordable: fewer key/value heads "
    "(grouped-query attention), a cache of past keys and values when generating, masks that look "
    "at a window instead of the whole text, and FlashAttention, which computes exactly the same "
    "softmax tile by tile. Every number below is computed on your sentence.",
    "efficient.layer_note": "One seeded attention layer from the sidebar: d_model = {d_model}, "
    "{nh} heads of d_k = {d_k}, seed {seed}, {mask}; this page always scores with the scaled dot "
    "product softmax(QKᵀ/√d_k).",
    "efficient.mask.none": "no mask (every token sees every token)",
    "efficient.mask.causal": "causal mask",
    "efficient.kv_heads": "Key/value heads",
    "efficient.kv_heads_help": "The divisors of the sidebar's {nh} heads: {nh} is multi-head "
    "attention (MHA), 1 is multi-query attention (MQA), anything between is grouped-query "
    "attention (GQA).",
    "efficient.view.gqa": "Fewer key/value heads",
    "efficient.view.cache": "KV cache",
    "efficient.view.calculator": "Cache size",
    "efficient.view.masks": "Masks",
    "efficient.view.flash": "FlashAttention",
    "efficient.gqa": "MHA → GQA → MQA: fewer key/value heads",
    "efficient.gqa_intro": "Every query head still asks its own question, but groups of query heads "
    "share one key head and one value head. Fewer key/value heads mean fewer keys and values to "
    "store while generating (the KV cache below), at little cost in quality (Ainslie et al. 2023; "
    "Llama 3 8B uses 8 key/value heads for 32 query heads).",
    "efficient.gqa_kind.mha": "**Multi-head attention:** {nh} query heads, {n_kv} key/value heads, "
    "each query head has its own.",
    "efficient.gqa_kind.gqa": "**Grouped-query attention:** {nh} query heads share {n_kv} key/value "
    "heads, {group} query heads per group.",
    "efficient.gqa_kind.mqa": "**Multi-query attention:** all {nh} query heads share {n_kv} key/value "
    "head (Shazeer 2019).",
    "efficient.query_head": "query heads",
    "efficient.tokens_capped": "every head is drawn cell by cell, token by token; for a longer "
    "text that is too much to send and draw at each step.",
    "efficient.kv_head": "key/value heads",
    "efficient.head_title": "head {h} · K/V {g}",
    "efficient.gqa_pooling": "The layer runs as MultiHeadAttention(d_model, n_heads, "
    "n_kv_heads={n_kv}): the key and value projections of each group are the mean of the "
    "group's multi-head projections, the way Ainslie et al. (2023) turn a multi-head checkpoint "
    "into a grouped one before training it a little more. Heads of one group read the same "
    "keys, so their patterns differ only through their queries.",
    "efficient.gqa_same": "With {n_kv} key/value heads for {nh} query heads this is multi-head "
    "attention: its outputs differ from the multi-head layer's by {diff}, and from PyTorch's "
    "scaled_dot_product_attention(enable_gqa=True) by {sdpa}.",
    "efficient.gqa_diff": "With {n_kv} key/value heads the outputs move away from multi-head "
    "attention's by up to {diff} (the pooled keys and values are not the heads' own); they agree "
    "with PyTorch's scaled_dot_product_attention(enable_gqa=True) on the same pooled heads to "
    "{sdpa}.",
    "efficient.cache": "The KV cache: generating token by token",
    "efficient.cache_intro": "A language model writes one token at a time. With a causal mask a token "
    "never looks ahead, so the keys and values of the earlier tokens do not change when a new "
    "token arrives: keep them in a cache, compute only the new token's query, key and value, and "
    "let it attend over the cache. Below, your sentence is decoded this way, and every step is "
    "checked against recomputing causal attention over the whole prefix.",
    "efficient.cache_limit": "The first {n} tokens are decoded step by step.",
    "efficient.step": "Decoding step",
    "efficient.step_help": "Step t adds token t to the cache and lets it attend over tokens 0..t.",
    "efficient.step_text": "Step {t}: the new token **{token}** joins the cache, which now holds "
    "the keys and values of tokens 0 to {t} ({n} in all) in each of its {n_kv} key/value heads.",
    "efficient.step_fig": "Step {t}: the new token's weights over the cache",
    "efficient.head_short": "head",
    "efficient.weight": "weight",
    "efficient.step_axis": "decoding step",
    "efficient.bytes": "cache bytes (this layer, float32)",
    "efficient.cache_mha": "{nh} key/value heads (multi-head)",
    "efficient.cache_gqa": "{n_kv} key/value heads (chosen)",
    "efficient.cache_check": "Over all {n} steps, the cached outputs differ from recomputing "
    "causal attention over the prefix by at most {diff}: the cache changes the cost, not the "
    "result.",
    "efficient.calc": "How big the cache gets: published models",
    "efficient.model": "Model",
    "efficient.tokens": "Tokens",
    "efficient.batch": "Batch",
    "efficient.dtype": "Value type",
    "efficient.calc_result": "**{name}:** 2 × {L} layers × {n_kv} key/value heads × d_k {d_k} × "
    "{tokens} tokens × {b} bytes × batch {batch} = **{total}** ({per_token} a token).",
    "efficient.calc_window": "{name}'s sliding window keeps at most {w} tokens in a rolling cache: "
    "older keys and values are overwritten.",
    "efficient.col.model": "model",
    "efficient.col.layers": "layers",
    "efficient.col.heads": "query heads",
    "efficient.col.kv_heads": "key/value heads",
    "efficient.col.d_k": "d_k",
    "efficient.col.dtype": "released as",
    "efficient.col.per_token": "cache a token",
    "efficient.col.at_context": "cache at context (tokens)",
    "efficient.col.source": "Sources",
    "efficient.table_caption": "Computed with the formula above from each model's published "
    "configuration (the source column). Llama 3 8B: {l3_tok} a token in {l3_dtype}, {l3_ctx} at "
    "{l3_n} tokens; Llama 2 7B, with as many key/value heads as query heads, needs {ratio} times "
    "as much a token ({l2_tok}; {l2_ctx} at its {l2_n}-token context).",
    "efficient.masks": "Masks beyond causal: windows, sinks, global tokens",
    "efficient.masks_intro": "A causal mask lets token i look at all i earlier tokens: the cost "
    "grows with the square of the length. A **sliding window** keeps only the last w tokens "
    "(Longformer; Mistral 7B uses 4,096). **Attention sinks** keep the first few tokens visible "
    "to everyone, because models park surplus attention there (Xiao et al. 2023 keep 4). "
    "**Global tokens** are seen by every token (Longformer, BigBird); under the causal mask "
    "here a global token sees every earlier token. Stacked layers pass information further than "
    "one window: the receptive field.",
    "efficient.window": "Window w (tokens)",
    "efficient.sinks": "Sink tokens",
    "efficient.sinks_help": "The first k tokens stay visible to every later token.",
    "efficient.global": "Global tokens",
    "efficient.global_help": "A global token sees every earlier token and every later token sees it.",
    "efficient.layers": "Layers L",
    "efficient.mask_fig": "The mask: who may look at whom",
    "efficient.visible": "visible",
    "efficient.reach_fig": "Receptive field after {L} layers",
    "efficient.reaches": "reaches",
    "efficient.head_n": "head {h}",
    "efficient.reach_exact": "farthest token back (composing the masks)",
    "efficient.reach_exact_special": "farthest token back, sinks and global tokens aside "
    "(composing the masks)",
    "efficient.reach_closed": "closed form L(w − 1), w = {w}",
    "efficient.layer_axis": "layers L",
    "efficient.back_axis": "tokens back",
    "efficient.reach_agree": "Composing the masks layer by layer (boolean matrix products) gives, "
    "after {L} layers, information from up to {back} tokens back: the closed form L(w − 1) with "
    "w = {w}, capped by the sentence's length.",
    "efficient.reach_differ": "Composing the masks gives {back} tokens back after {L} layers, "
    "which differs from the closed form L(w − 1) with w = {w}.",
    "efficient.reach_sinks": "After {L} layers the last token holds information from {visible} of "
    "the {T} tokens; the farthest, sinks and global tokens aside, is {back} tokens back. Under the "
    "causal mask a sink sees only the sinks: it adds itself to every token's reach and relays "
    "nothing else. A global token relays the tokens before it, one layer later.",
    "efficient.mistral": "The published example: Mistral 7B's window of {w} tokens over {L} layers "
    "reaches L(w − 1) = {reach} tokens back, about {k}k (Jiang et al. 2023: \"approximately 131K "
    "tokens\").",
    "efficient.flash": "FlashAttention's idea: tiles and an online softmax",
    "efficient.flash_intro": "The plain computation writes all T × T scores to memory before the "
    "softmax. FlashAttention (Dao et al. 2022) reads the keys block by block and keeps, for each "
    "query row, only a running maximum m, a running sum ℓ of exponentials and a partial output o. "
    "When a block brings a larger score, the sum and the output so far are rescaled by "
    "e^(m − m'). The result is exact, not an approximation.",
    "efficient.block": "Block size",
    "efficient.head": "Head",
    "efficient.row": "Query row",
    "efficient.tile": "Key block (tile) read so far",
    "efficient.tiles_fig": "Head {h}: scores in tiles",
    "efficient.tiles_caption": "Scaled scores q·k/√d_k of one head. Grey lines: the blocks; orange: "
    "the tiles of the chosen row's query block, the thick one read last; dotted: the query row.",
    "efficient.tiles_causal": " Blank cells are hidden by the causal mask.",
    "efficient.score": "score",
    "efficient.tile_text": "Tile {tile} (of tiles 0 to {last}; keys {k0} to {k1}) for query row "
    "{row} (**{token}**): running max m = {m}, running sum ℓ = {l}; what was summed before shrank by "
    "e^(m_before − m) = {rescale}.",
    "efficient.tile_first": "Tile 0 (of tiles 0 to {last}; keys {k0} to {k1}) for query row {row} "
    "(**{token}**): "
    "running max m = {m}, running sum ℓ = {l}. The first tile starts the sums: there is nothing "
    "to rescale yet.",
    "efficient.after_tile": "after tile {s}",
    "efficient.m": "running max m",
    "efficient.l": "running sum ℓ",
    "efficient.rescale": "rescale e^(m_before − m)",
    "efficient.tile_axis": "tile",
    "efficient.plain": "plain",
    "efficient.dimension": "dimension of the head's output",
    "efficient.partial_fig": "The row's output so far (o / ℓ), tile by tile",
    "efficient.flash_diff": "Tiled against plain attention: row {row} differs by {diff_row}, the "
    "whole sentence (every head and row) by {diff}. Tiles computed: {tiles}.",
    "efficient.flash_skipped": " Skipped because the causal mask hides them entirely: {skipped}.",
    "efficient.mem_plain": "plain: T × T scores",
    "efficient.mem_tiled": "tiled: one {b} × {b} tile",
    "efficient.mem_t": "sequence length T",
    "efficient.mem_scores": "scores held at once (per head)",
    "efficient.mem_caption": "At T = {T} the plain computation holds {plain} scores per head "
    "({mb} in float32); one {b} × {b} tile holds {tile}, whatever the length. Your sentence has "
    "{n} tokens. Real kernels use tiles of 64 to 128 that fit in the GPU's on-chip memory.",
}

ZH = {
    "nav.efficient": "高效注意力",
    "efficient.title": "高效注意力:当今的语言模型如何计算注意力",
    "efficient.intro": "2017 年的注意力仍是 Llama 3、Mistral 7B、Qwen2 等开放模型的核心,只是多了几处让长文本"
    "负担得起的改动:更少的键/值头(分组查询注意力)、生成时缓存过去的键和值、只看一个窗口而非全文的掩码,"
    "以及 FlashAttention——它逐块计算出完全相同的 softmax。下面的每个数字都是在你的句子上算出来的。",
    "efficient.layer_note": "侧边栏的一个带种子的注意力层:d_model = {d_model},{nh} 个头,每个 d_k = "
    "{d_k},种子 {seed},{mask};本页始终使用缩放点积 softmax(QKᵀ/√d_k) 打分。",
    "efficient.mask.none": "无掩码(每个词元都能看到所有词元)",
    "efficient.mask.causal": "因果掩码",
    "efficient.kv_heads": "键/值头数",
    "efficient.kv_heads_help": "侧边栏 {nh} 个头的约数:{nh} 为多头注意力(MHA),1 为多查询注意力(MQA),"
    "介于两者之间为分组查询注意力(GQA)。",
    "efficient.view.gqa": "更少的键/值头",
    "efficient.view.cache": "KV 缓存",
    "efficient.view.calculator": "缓存大小",
    "efficient.view.masks": "掩码",
    "efficient.view.flash": "FlashAttention",
    "efficient.gqa": "MHA → GQA → MQA:更少的键/值头",
    "efficient.gqa_intro": "每个查询头仍提出自己的问题,但一组查询头共享一个键头和一个值头。键/值头越少,"
    "生成时需要存储的键和值就越少(见下方的 KV 缓存),而质量损失很小(Ainslie 等,2023;Llama 3 8B "
    "用 8 个键/值头对应 32 个查询头)。",
    "efficient.gqa_kind.mha": "**多头注意力:**{nh} 个查询头,{n_kv} 个键/值头,每个查询头都有自己的。",
    "efficient.gqa_kind.gqa": "**分组查询注意力:**{nh} 个查询头共享 {n_kv} 个键/值头,每组 {group} 个查询头。",
    "efficient.gqa_kind.mqa": "**多查询注意力:**全部 {nh} 个查询头共享 {n_kv} 个键/值头(Shazeer,2019)。",
    "efficient.query_head": "查询头",
    "efficient.tokens_capped": "每个头都按词元逐格绘制;文本更长时,每一步要发送和绘制的数据太多。",
    "efficient.kv_head": "键/值头",
    "efficient.head_title": "头 {h} · K/V {g}",
    "efficient.gqa_pooling": "该层以 MultiHeadAttention(d_model, n_heads, n_kv_heads={n_kv}) 运行:每组的"
    "键投影和值投影是该组多头投影的平均,Ainslie 等(2023)正是这样把多头检查点转换为分组检查点,"
    "再少量继续训练。同组的头读取相同的键,因此它们的模式只因查询不同而不同。",
    "efficient.gqa_same": "{n_kv} 个键/值头对应 {nh} 个查询头,这就是多头注意力:输出与多头层相差 {diff},"
    "与 PyTorch 的 scaled_dot_product_attention(enable_gqa=True) 相差 {sdpa}。",
    "efficient.gqa_diff": "使用 {n_kv} 个键/值头时,输出与多头注意力最多相差 {diff}(平均后的键和值不再是"
    "各头自己的);在相同的平均头上,它与 PyTorch 的 scaled_dot_product_attention(enable_gqa=True) "
    "相差 {sdpa}。",
    "efficient.cache": "KV 缓存:逐词元生成",
    "efficient.cache_intro": "语言模型一次写一个词元。在因果掩码下词元从不向后看,因此新词元到来时,"
    "之前词元的键和值不会改变:把它们存进缓存,只计算新词元的查询、键和值,再让它在缓存上做注意力。"
    "下面用这种方式解码你的句子,并在每一步与对整个前缀重新计算因果注意力的结果比较。",
    "efficient.cache_limit": "逐步解码前 {n} 个词元。",
    "efficient.step": "解码步",
    "efficient.step_help": "第 t 步把词元 t 加入缓存,并让它在词元 0..t 上做注意力。",
    "efficient.step_text": "第 {t} 步:新词元 **{token}** 加入缓存,现在缓存的 {n_kv} 个键/值头各存有 "
    "词元 0 到 {t}(共 {n} 个)的键和值。",
    "efficient.step_fig": "第 {t} 步:新词元在缓存上的权重",
    "efficient.head_short": "头",
    "efficient.weight": "权重",
    "efficient.step_axis": "解码步",
    "efficient.bytes": "缓存字节数(本层,float32)",
    "efficient.cache_mha": "{nh} 个键/值头(多头)",
    "efficient.cache_gqa": "{n_kv} 个键/值头(所选)",
    "efficient.cache_check": "在全部 {n} 步中,缓存得到的输出与对前缀重新计算因果注意力最多相差 {diff}:"
    "缓存改变的是代价,不是结果。",
    "efficient.calc": "缓存有多大:已发布的模型",
    "efficient.model": "模型",
    "efficient.tokens": "词元数",
    "efficient.batch": "批大小",
    "efficient.dtype": "数值类型",
    "efficient.calc_result": "**{name}:**2 × {L} 层 × {n_kv} 个键/值头 × d_k {d_k} × {tokens} 个词元 × "
    "{b} 字节 × 批大小 {batch} = **{total}**(每个词元 {per_token})。",
    "efficient.calc_window": "{name} 的滑动窗口在滚动缓存中最多保留 {w} 个词元:更早的键和值会被覆盖。",
    "efficient.col.model": "模型",
    "efficient.col.layers": "层数",
    "efficient.col.heads": "查询头",
    "efficient.col.kv_heads": "键/值头",
    "efficient.col.d_k": "d_k",
    "efficient.col.dtype": "发布精度",
    "efficient.col.per_token": "每词元缓存",
    "efficient.col.at_context": "满上下文缓存(词元数)",
    "efficient.col.source": "来源",
    "efficient.table_caption": "按上面的公式,由各模型公开的配置(见来源列)计算。Llama 3 8B:{l3_dtype} 下"
    "每个词元 {l3_tok},{l3_n} 个词元时 {l3_ctx};Llama 2 7B 的键/值头与查询头一样多,每个词元需要 {ratio} 倍"
    "({l2_tok};在它 {l2_n} 个词元的上下文长度下为 {l2_ctx})。",
    "efficient.masks": "因果之外的掩码:窗口、汇聚词元、全局词元",
    "efficient.masks_intro": "因果掩码让词元 i 看之前全部 i 个词元:代价随长度的平方增长。**滑动窗口**只保留"
    "最近的 w 个词元(Longformer;Mistral 7B 用 4,096)。**注意力汇聚**让开头几个词元对所有词元可见,"
    "因为模型会把多余的注意力放在那里(Xiao 等,2023 保留 4 个)。**全局词元**被所有词元看到(Longformer、"
    "BigBird);在这里的因果掩码下,全局词元能看到它之前的每个词元。层层堆叠时,信息能传得比一个窗口更远:这就是感受野。",
    "efficient.window": "窗口 w(词元)",
    "efficient.sinks": "汇聚词元数",
    "efficient.sinks_help": "前 k 个词元对之后的每个词元始终可见。",
    "efficient.global": "全局词元",
    "efficient.global_help": "全局词元能看到之前的每个词元,之后的每个词元也能看到它。",
    "efficient.layers": "层数 L",
    "efficient.mask_fig": "掩码:谁可以看谁",
    "efficient.visible": "可见",
    "efficient.reach_fig": "{L} 层之后的感受野",
    "efficient.reaches": "可达",
    "efficient.head_n": "头 {h}",
    "efficient.reach_exact": "最远可达的词元(组合掩码)",
    "efficient.reach_exact_special": "最远可达的词元,不计汇聚词元和全局词元(组合掩码)",
    "efficient.reach_closed": "解析式 L(w − 1),w = {w}",
    "efficient.layer_axis": "层数 L",
    "efficient.back_axis": "向前的词元数",
    "efficient.reach_agree": "逐层组合掩码(布尔矩阵乘积)得到:{L} 层之后,信息最远来自 {back} 个词元之前,"
    "即解析式 L(w − 1)(w = {w}),并受句子长度限制。",
    "efficient.reach_differ": "组合掩码得到 {L} 层之后可达 {back} 个词元之前,与解析式 L(w − 1)(w = {w})不同。",
    "efficient.reach_sinks": "{L} 层之后,最后一个词元汇集了 {T} 个词元中 {visible} 个的信息;不计汇聚词元"
    "和全局词元,最远的在 {back} 个词元之前。在因果掩码下,汇聚词元只能看到汇聚词元:它把自己加入每个词元"
    "的可达范围,但不传递其他信息。全局词元把它之前的词元传递下去,晚一层。",
    "efficient.mistral": "公开的例子:Mistral 7B 的 {w} 词元窗口经过 {L} 层,可达 L(w − 1) = {reach} 个词元"
    "之前,约 {k}k(Jiang 等,2023:\"约 131K 个词元\")。",
    "efficient.flash": "FlashAttention 的思路:分块与在线 softmax",
    "efficient.flash_intro": "普通计算在 softmax 之前把全部 T × T 个分数写入内存。FlashAttention(Dao 等,"
    "2022)逐块读取键,对每个查询行只保存一个运行最大值 m、一个指数的运行和 ℓ 和一个部分输出 o。"
    "当某块带来更大的分数时,之前的和与输出按 e^(m − m') 缩放。结果是精确的,不是近似。",
    "efficient.block": "块大小",
    "efficient.head": "头",
    "efficient.row": "查询行",
    "efficient.tile": "已读到的键块(分块)",
    "efficient.tiles_fig": "头 {h}:分块的分数",
    "efficient.tiles_caption": "一个头的缩放分数 q·k/√d_k。灰线:分块;橙色:所选行所在查询块的各个分块,"
    "粗框是最后读到的那块;虚线:查询行。",
    "efficient.tiles_causal": "空白格被因果掩码遮住。",
    "efficient.score": "分数",
    "efficient.tile_text": "查询行 {row}(**{token}**)的第 {tile} 块(共第 0 到 {last} 块;键 {k0} 到 {k1}):运行最大值 "
    "m = {m},运行和 ℓ = {l};之前累加的部分缩小为 e^(m_before − m) = {rescale} 倍。",
    "efficient.tile_first": "查询行 {row}(**{token}**)的第 0 块(共第 0 到 {last} 块;键 {k0} 到 {k1}):运行最大值 "
    "m = {m},运行和 ℓ = {l}。第一块开始累加:还没有需要缩放的部分。",
    "efficient.after_tile": "第 {s} 块之后",
    "efficient.m": "运行最大值 m",
    "efficient.l": "运行和 ℓ",
    "efficient.rescale": "缩放 e^(m_before − m)",
    "efficient.tile_axis": "分块",
    "efficient.plain": "普通计算",
    "efficient.dimension": "头输出的维度",
    "efficient.partial_fig": "该行逐块的当前输出(o / ℓ)",
    "efficient.flash_diff": "分块与普通注意力相比:第 {row} 行相差 {diff_row},整个句子(所有头和行)相差 "
    "{diff}。计算的块数:{tiles}。",
    "efficient.flash_skipped": "因被因果掩码完全遮住而跳过的块数:{skipped}。",
    "efficient.mem_plain": "普通:T × T 个分数",
    "efficient.mem_tiled": "分块:一个 {b} × {b} 块",
    "efficient.mem_t": "序列长度 T",
    "efficient.mem_scores": "同时保存的分数(每个头)",
    "efficient.mem_caption": "T = {T} 时,普通计算每个头保存 {plain} 个分数(float32 下 {mb});一个 {b} × {b} "
    "的块只保存 {tile} 个,与长度无关。你的句子有 {n} 个词元。实际的内核使用 64 到 128 的块,以放进 GPU "
    "的片上内存。",
}
