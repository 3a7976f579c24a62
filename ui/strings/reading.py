"""The Reading heads page.

Every view says what it shows and what it does not. Options of selectboxes carry no words (a
selectbox keeps showing its chosen option's text after a language switch in Streamlit 1.67).
`reading.clark.<i>` are the findings of `mha_core.interpret.CLARK_2019` in order: in English the
paper's own words (a test checks they equal the core's), in 中文 a translation.
"""

EN = {
    "reading.title": "Reading heads the way research does",
    "reading.intro": "Raw attention weights mislead in known ways: a head can put most of its "
    "weight on [SEP] or [CLS] and still move almost nothing, and one layer's weights do not say where "
    "information came from across layers. This page reads the heads of all-MiniLM-L6-v2 (the "
    "model of the Pretrained heads page, {layers} layers x {heads} heads) on your sentence as "
    "interpretability research does. Layers and heads are counted from 0.",
    "reading.loading": "Loading all-MiniLM-L6-v2 (once per server)…",
    "reading.truncated": "The input has {n_total} WordPiece tokens; the model reads at most "
    "{limit} (the rest is cut, the final [SEP] kept).",
    "reading.tokens": "WordPiece tokens ({n})",
    "reading.layer": "Layer",
    "reading.head": "Head",
    "reading.pickers_help": "Every view below shows this layer and head; clicking a cell of the "
    "head-importance map picks it too.",
    "reading.filter": "Filter on every heatmap and on the lines",
    "reading.filter.none": "Show everything",
    "reading.filter.threshold": "Hide weights below a threshold",
    "reading.filter.top_k": "Keep each row's top k",
    "reading.filter_help": "Hidden cells are left blank; the caption under each figure says how "
    "much of the attention mass they held.",
    "reading.threshold": "Threshold",
    "reading.top_k": "k (cells kept per row)",
    "reading.hidden": "The filter hides {share:.1%} of the attention mass here ({n} of {total} "
    "cells).",
    "reading.cropped": "Showing the first {shown} of {n} tokens (rows cut there do not sum to 1); "
    "the filter's share is of the whole matrix.",
    "reading.query": "query",
    "reading.key": "key",
    "reading.weight": "weight",
    "reading.share": "share",
    "reading.layer_word": "layer",
    "reading.head_word": "head",
    # lines view
    "reading.view.lines": "Lines",
    "reading.view.norms": "Weights vs norms",
    "reading.view.rollout": "Rollout",
    "reading.view.ablation": "Head importance",
    "reading.view.qk": "Query/key map",
    "reading.view.corpus": "Over a corpus",
    "reading.lines.title": "Lines: who attends to whom (layer {layer})",
    "reading.lines.what": "Each line runs from a query token (left) to a key token (right); its "
    "opacity is the attention weight and its colour the head, as in BertViz's head view. It "
    "shows where each head's weights go, not how much information travels along them (see the "
    "value-weighted norms below).",
    "reading.lines.heads": "Heads drawn (at most {max})",
    "reading.lines.token": "Only the lines of token (– = every token)",
    "reading.lines.side": "That token as",
    "reading.lines.side.query": "query: its lines out",
    "reading.lines.side.key": "key: the lines into it",
    "reading.lines.click": "Click a token to keep only its lines (left column: as query, right "
    "column: as key); then hover a token on the other side for each head's exact weight.",
    "reading.lines.hint": "click to show only this token's lines",
    "reading.lines.cap": "The lines view draws at most {cap} tokens: showing the first {cap} of "
    "{n}.",
    "reading.lines.floor": "Weights under {floor} are not drawn (invisible at that opacity).",
    "reading.lines.no_heads": "Pick at least one head to draw.",
    # weights vs value-weighted norms
    "reading.norms.title": "Weights against value-weighted norms (layer {layer}, head {head})",
    "reading.norms.what": "Left, the attention weights α_ij. Right, the size of what each key "
    "actually adds, ‖α_ij f(x_j)‖ with f(x) = (x W_V + b_V) W_O of this head (Kobayashi et al. "
    "2020), each row divided by its sum. A large weight on a token whose transformed value is "
    "tiny moves almost nothing; norms still do not say what the moved vectors mean.",
    "reading.norms.weights_fig": "Attention weights",
    "reading.norms.norms_fig": "Value-weighted norms (share of the row)",
    "reading.norms.layers_title": "Per layer: the share on [CLS], [SEP] and punctuation",
    "reading.norms.layers_what": "Mean over the layer's heads and over the query tokens, for this "
    "sentence. The dashed line marks one half.",
    "reading.norms.layer_numbers": "Layer {layer}, share of the weights against share of the "
    "norms: [SEP] {w_sep:.1%} against {n_sep:.1%}; [CLS] {w_cls:.1%} against {n_cls:.1%}; "
    "punctuation {w_punct:.1%} against {n_punct:.1%}.",
    "reading.measure.weights": "attention weights",
    "reading.measure.norms": "value-weighted norms",
    "reading.half": "one half",
    "reading.cat.cls": "[CLS]",
    "reading.cat.sep": "[SEP]",
    "reading.cat.punct": "punctuation",
    "reading.cat.prev": "previous token",
    "reading.cat.next": "next token",
    "reading.cat.self": "itself",
    # rollout
    "reading.rollout.title": "Rollout after layer {layer}, beside the raw attention of that layer",
    "reading.rollout.what": "Attention rollout (Abnar & Zuidema 2020) multiplies the head-"
    "averaged attention of {span}, counting the residual connection as half an "
    "identity: row i says how much of token i after layer {layer} traces back to each input "
    "token. It assumes information mixes only through attention, linearly and equally across "
    "heads: an estimate, not a measurement of what the model uses.",
    "reading.rollout.residual": "Count the residual connection (0.5·A + 0.5·I)",
    "reading.rollout.residual_help": "Without it, rollout multiplies the raw attention "
    "matrices. A product of row-stochastic matrices tends to give every row the same "
    "distribution after a few layers (not a uniform one: on MiniLM about half of every row "
    "goes to [CLS]).",
    "reading.rollout.fig": "Rollout through {span}",
    "reading.rollout.span": "layers 0 to {layer}",
    "reading.rollout.span_one": "layer 0 alone",
    "reading.rollout.raw_fig": "Layer {layer}: raw attention (mean over heads)",
    "reading.rollout.row": "token after the layer",
    "reading.rollout.col": "input token",
    "reading.rollout.value": "rollout share",
    "reading.rollout.feeds_title": "Which input tokens feed [CLS] and the sentence embedding",
    "reading.rollout.feeds_what": "After the last layer (layer {layer}): the [CLS] row of the "
    "rollout, and the mean of all its rows. all-MiniLM-L6-v2's sentence embedding is the mean of "
    "the last hidden states (mean pooling), so that mean is rollout's estimate of where the "
    "embedding comes from.",
    "reading.rollout.cls": "[CLS] output",
    "reading.rollout.mean": "mean-pooled output (the sentence embedding)",
    # head ablation
    "reading.ablation.title": "Head importance: zero one head, watch the sentence embedding move",
    "reading.ablation.what": "For each head: 1 − cosine similarity between the sentence "
    "embedding (mean pooling + L2 normalisation, as all-MiniLM-L6-v2 is used) with that head's "
    "output zeroed and without. It shows how much this sentence's embedding leans on each head "
    "alone; heads that back each other up each look unimportant, and zeroing a head is not the "
    "same as a model trained without it.",
    "reading.ablation.click": "Click a cell (or use the pickers at the top) to show that head's "
    "pattern beside the map.",
    "reading.ablation.hint": "click to show this head",
    "reading.ablation.value": "1 − cos",
    "reading.ablation.top": "Most important for this sentence: layer {layer}, head {head} "
    "(1 − cos = {value}); least: layer {low_layer}, head {low_head} ({low}).",
    "reading.ablation.head_fig": "Layer {layer}, head {head}: attention weights",
    "reading.ablation.long": "The sentence has {n} tokens: head ablation runs {layers} batched "
    "passes of {copies} copies of the encoder and takes a few seconds at this length.",
    "reading.ablation.button": "Compute head importance",
    "reading.ablation.running": "Zeroing each head in turn…",
    # query / key map
    "reading.qk.title": "Query/key map (layer {layer}, head {head})",
    "reading.qk.what": "As in AttentionViz (Yeh et al. 2023): this head's queries and keys "
    "projected together to two dimensions by PCA, one projection for both. A query lands near "
    "the keys it scores highly only roughly: the plane keeps {share:.0%} of the variance, and "
    "the dot product, not the distance, sets the weight.",
    "reading.qk.translate": "Move the keys to the queries' centre (attention unchanged)",
    "reading.qk.translate_help": "q·(k + c) = q·k + q·c adds the same number to one query's "
    "scores for every key, so softmax gives the same weights; AttentionViz does this so that the "
    "two clouds overlap.",
    "reading.qk.query": "Draw the attention of query (– = none)",
    "reading.qk.click": "Click a query (circle) to draw its attention; hover a key (diamond) for "
    "the exact weight.",
    "reading.qk.hint": "click to draw this query's attention",
    "reading.qk.queries": "queries",
    "reading.qk.keys": "keys",
    "reading.qk.axis": "PC {n} ({share:.0%} of the variance)",
    # corpus
    "reading.corpus.title": "What does MiniLM look at?",
    "reading.corpus.what": "The same shares averaged over {n} English sentences written for this "
    "app (its built-in corpus), under weights and under value-weighted norms, beside "
    "what Clark et al. (2019) found for BERT-base. Averages hide how sentences differ, and the "
    "categories overlap (the token before the first word is [CLS]).",
    "reading.corpus.run": "Run the corpus pass ({n} sentences; computed once per server)",
    "reading.corpus.progress": "Sentence {done} of {total}…",
    "reading.corpus.done": "{n} sentences, {tokens} WordPiece tokens.",
    "reading.corpus.fig_what": "Per layer, mean over heads, query tokens and sentences. The "
    "dashed line marks one half.",
    "reading.corpus.heads_title": "Heads with more than half of their attention on the previous "
    "token, the next token, [SEP] or [CLS]",
    "reading.corpus.col.category": "on",
    "reading.corpus.col.measure": "measured by",
    "reading.corpus.col.heads": "heads (share)",
    "reading.corpus.none": "none",
    "reading.corpus.many": "{count} heads; the largest: {top}",
    "reading.corpus.head_item": "layer {layer}, head {head} ({share:.1%})",
    "reading.corpus.published": "Beside the published findings for BERT-base",
    "reading.corpus.col.finding": "Clark et al. (2019), BERT-base",
    "reading.corpus.col.where": "where in the paper",
    "reading.corpus.col.minilm": "MiniLM here (weights | value norms)",
    "reading.corpus.note": "all-MiniLM-L6-v2 is a 6-layer model distilled from a larger one "
    "(12 heads of 32 dimensions per layer) and then fine-tuned contrastively on sentence "
    "pairs, while the paper's BERT-base was trained by masked language modelling; the paper "
    "averaged 1000 Wikipedia segments of up to 128 tokens in the form [CLS] A [SEP] B [SEP]. "
    "The numbers differ, and only the kinds of pattern compare. The paper counts layers from "
    "1, this page from 0.",
    "reading.corpus.cite": "Reference: {citation}",
    "reading.minilm.sep_layers": "largest per-layer [SEP] share: layer {lw}, {w:.1%} | layer {ln}, "
    "{n:.1%}. MiniLM parks on [CLS] instead: layer {cw}, {cwv:.1%} | layer {cn}, {cnv:.1%}",
    "reading.minilm.heads": "{w} | {n}",
    "reading.minilm.self": "mean share on itself: {w:.1%} | {n:.1%}",
    "reading.minilm.profile": "most on [CLS]: layer {cls}; on [SEP]: layer {sep}; on "
    "punctuation: layer {punct} (weights)",
    "reading.minilm.not_measured": "not measured here (it needs the [SEP] rows alone)",
    "reading.clark.0": "Over half of BERT's attention in layers 6-10 focuses on [SEP].",
    "reading.clark.1": "Four attention heads (in layers 2, 4, 7, and 8) on average put >50% of "
    "their attention on the previous token.",
    "reading.clark.2": "Five attention heads (in layers 1, 2, 2, 3, and 6) put >50% of their "
    "attention on the next token.",
    "reading.clark.3": "Most heads put little attention on the current token.",
    "reading.clark.4": "Early heads attend to [CLS], middle heads attend to [SEP], and deep heads "
    "attend to periods and commas.",
    "reading.clark.5": "Heads processing [SEP] attend almost entirely (more than 90%) to "
    "themselves and the other [SEP] token.",
}

ZH = {
    "reading.title": "像研究者一样解读注意力头",
    "reading.intro": "原始的注意力权重会以一些已知的方式误导人:一个头可以把大部分权重放在 [SEP] "
    "或 [CLS] 上却几乎什么也没有传递,而单独一层的权重也说不出信息跨层从哪里来。本页用可解释性研究的方法,"
    "在你的句子上解读 all-MiniLM-L6-v2 (即“预训练注意力头”页面的模型,{layers} 层 x {heads} 个头) "
    "的各个头。层和头都从 0 开始编号。",
    "reading.loading": "正在加载 all-MiniLM-L6-v2 (每个服务器只加载一次)…",
    "reading.truncated": "输入共有 {n_total} 个 WordPiece 词元;模型最多读取 {limit} 个 "
    "(其余被截断,保留最后的 [SEP])。",
    "reading.tokens": "WordPiece 词元 ({n} 个)",
    "reading.layer": "层",
    "reading.head": "头",
    "reading.pickers_help": "下面每个视图都显示这一层和这个头;点击“头的重要性”图中的格子也能选中它。",
    "reading.filter": "作用于每张热力图和连线图的过滤",
    "reading.filter.none": "全部显示",
    "reading.filter.threshold": "隐藏低于阈值的权重",
    "reading.filter.top_k": "每行只保留最大的 k 个",
    "reading.filter_help": "被隐藏的格子留空;每张图下方的说明给出它们占注意力总量的比例。",
    "reading.threshold": "阈值",
    "reading.top_k": "k (每行保留的格子数)",
    "reading.hidden": "过滤隐藏了这里 {share:.1%} 的注意力总量 ({total} 个格子中的 {n} 个)。",
    "reading.cropped": "显示 {n} 个词元中的前 {shown} 个 (在此截断的行之和不为 1);过滤的比例按整个矩阵计算。",
    "reading.query": "查询",
    "reading.key": "键",
    "reading.weight": "权重",
    "reading.share": "占比",
    "reading.layer_word": "层",
    "reading.head_word": "头",
    "reading.view.lines": "连线图",
    "reading.view.norms": "权重与范数",
    "reading.view.rollout": "Rollout",
    "reading.view.ablation": "头的重要性",
    "reading.view.qk": "查询/键图",
    "reading.view.corpus": "在语料上",
    "reading.lines.title": "连线图:谁关注谁 (第 {layer} 层)",
    "reading.lines.what": "每条线从一个查询词元 (左) 连到一个键词元 (右);线的不透明度是注意力权重,"
    "颜色代表头,和 BertViz 的 head view 一样。它显示每个头的权重落在哪里,而不是沿着这些线实际传递了多少信息"
    " (见下面的值加权范数)。",
    "reading.lines.heads": "要画的头 (最多 {max} 个)",
    "reading.lines.token": "只显示这个词元的线 (– = 所有词元)",
    "reading.lines.side": "把这个词元作为",
    "reading.lines.side.query": "查询:从它出发的线",
    "reading.lines.side.key": "键:指向它的线",
    "reading.lines.click": "点击一个词元,只保留它的线 (左列:作为查询,右列:作为键);"
    "然后把鼠标停在另一侧的词元上,可看到每个头的精确权重。",
    "reading.lines.hint": "点击只显示这个词元的线",
    "reading.lines.cap": "连线图最多画 {cap} 个词元:显示 {n} 个中的前 {cap} 个。",
    "reading.lines.floor": "低于 {floor} 的权重不画出 (在这样的不透明度下本来也看不见)。",
    "reading.lines.no_heads": "请至少选择一个头。",
    "reading.norms.title": "权重与值加权范数对比 (第 {layer} 层,第 {head} 个头)",
    "reading.norms.what": "左边是注意力权重 α_ij。右边是每个键实际加入的量的大小 ‖α_ij f(x_j)‖,"
    "其中 f(x) = (x W_V + b_V) W_O 属于这个头 (Kobayashi 等,2020),每行除以该行之和。"
    "如果一个词元经过变换的值向量很小,即使权重很大也几乎什么都没传递;不过范数也说不出被传递的向量有什么含义。",
    "reading.norms.weights_fig": "注意力权重",
    "reading.norms.norms_fig": "值加权范数 (占该行的比例)",
    "reading.norms.layers_title": "每一层:落在 [CLS]、[SEP] 和标点上的比例",
    "reading.norms.layers_what": "对这一层的所有头和所有查询词元取平均,针对这个句子。虚线表示一半。",
    "reading.norms.layer_numbers": "第 {layer} 层,权重占比对范数占比:[SEP] 为 {w_sep:.1%} 对 "
    "{n_sep:.1%};[CLS] 为 {w_cls:.1%} 对 {n_cls:.1%};标点为 {w_punct:.1%} 对 {n_punct:.1%}。",
    "reading.measure.weights": "注意力权重",
    "reading.measure.norms": "值加权范数",
    "reading.half": "一半",
    "reading.cat.cls": "[CLS]",
    "reading.cat.sep": "[SEP]",
    "reading.cat.punct": "标点",
    "reading.cat.prev": "前一个词元",
    "reading.cat.next": "后一个词元",
    "reading.cat.self": "自身",
    "reading.rollout.title": "第 {layer} 层之后的 rollout,旁边是这一层的原始注意力",
    "reading.rollout.what": "注意力 rollout (Abnar 与 Zuidema,2020) 把{span}"
    "按头平均后的注意力相乘,并把残差连接算作一半的单位矩阵:第 i 行表示第 {layer} "
    "层之后词元 i 有多少可以追溯到每个输入词元。它假设信息只通过注意力、以线性方式、在各个头之间平均地混合:"
    "这是一个估计,而不是对模型实际使用了什么的测量。",
    "reading.rollout.residual": "计入残差连接 (0.5·A + 0.5·I)",
    "reading.rollout.residual_help": "不计入时,rollout 直接把原始注意力矩阵相乘。行随机矩阵的乘"
    "积几层之后往往使每一行都变成同一个分布(而不是均匀分布:在 MiniLM 上,每一行大约一半的权重落"
    "在 [CLS] 上)。",
    "reading.rollout.fig": "经过{span}的 rollout",
    "reading.rollout.span": "第 0 层到第 {layer} 层",
    "reading.rollout.span_one": "仅第 0 层",
    "reading.rollout.raw_fig": "第 {layer} 层:原始注意力 (各头平均)",
    "reading.rollout.row": "该层之后的词元",
    "reading.rollout.col": "输入词元",
    "reading.rollout.value": "rollout 占比",
    "reading.rollout.feeds_title": "哪些输入词元汇入 [CLS] 和句子向量",
    "reading.rollout.feeds_what": "在最后一层 (第 {layer} 层) 之后:rollout 中 [CLS] 那一行,以及所有行的平均。"
    "all-MiniLM-L6-v2 的句子向量是最后一层隐藏状态的平均 (平均池化),所以这个平均就是 rollout "
    "对句子向量来源的估计。",
    "reading.rollout.cls": "[CLS] 的输出",
    "reading.rollout.mean": "平均池化的输出 (句子向量)",
    "reading.ablation.title": "头的重要性:把一个头置零,看句子向量如何移动",
    "reading.ablation.what": "对每个头:把这个头的输出置零前后,句子向量 (平均池化 + L2 归一化,"
    "与 all-MiniLM-L6-v2 的用法相同) 之间的 1 − 余弦相似度。它显示这个句子的向量单独依赖每个头的程度;"
    "互为备份的头单独看都显得不重要,而且把一个头置零并不等于训练时就没有这个头。",
    "reading.ablation.click": "点击一个格子 (或使用顶部的选择框),在图旁显示这个头的注意力模式。",
    "reading.ablation.hint": "点击显示这个头",
    "reading.ablation.value": "1 − cos",
    "reading.ablation.top": "对这个句子最重要的是:第 {layer} 层,第 {head} 个头 (1 − cos = {value});"
    "最不重要的是:第 {low_layer} 层,第 {low_head} 个头 ({low})。",
    "reading.ablation.head_fig": "第 {layer} 层,第 {head} 个头:注意力权重",
    "reading.ablation.long": "这个句子有 {n} 个词元:头消融要对编码器的 {copies} 个副本分批运行 {layers} "
    "次,在这个长度下需要几秒钟。",
    "reading.ablation.button": "计算头的重要性",
    "reading.ablation.running": "正在依次把每个头置零…",
    "reading.qk.title": "查询/键图 (第 {layer} 层,第 {head} 个头)",
    "reading.qk.what": "与 AttentionViz (Yeh 等,2023) 相同:这个头的查询和键用 PCA 一起投影到二维,"
    "两者使用同一个投影。查询只是大致落在它打分高的键附近:这个平面只保留了 {share:.0%} 的方差,"
    "而且决定权重的是点积,不是距离。",
    "reading.qk.translate": "把键平移到查询的中心 (注意力不变)",
    "reading.qk.translate_help": "q·(k + c) = q·k + q·c 给同一个查询对所有键的得分加上同一个数,"
    "所以 softmax 得到的权重不变;AttentionViz 这样做是为了让两团点重叠。",
    "reading.qk.query": "画出这个查询的注意力 (– = 不画)",
    "reading.qk.click": "点击一个查询 (圆点) 画出它的注意力;把鼠标停在键 (菱形) 上可看到精确权重。",
    "reading.qk.hint": "点击画出这个查询的注意力",
    "reading.qk.queries": "查询",
    "reading.qk.keys": "键",
    "reading.qk.axis": "主成分 {n} (占方差的 {share:.0%})",
    "reading.corpus.title": "MiniLM 在看什么?",
    "reading.corpus.what": "同样的比例,在为本项目编写的 {n} 个英文句子 (应用内置的语料) "
    "上取平均,分别按权重和按值加权范数计算,并与 Clark 等 (2019) 对 BERT-base 的发现并列。"
    "平均值掩盖了句子之间的差异,而且这些类别有重叠 (第一个词之前的词元就是 [CLS])。",
    "reading.corpus.run": "运行语料统计 ({n} 个句子;每个服务器只计算一次)",
    "reading.corpus.progress": "第 {done} / {total} 个句子…",
    "reading.corpus.done": "{n} 个句子,共 {tokens} 个 WordPiece 词元。",
    "reading.corpus.fig_what": "每一层,对头、查询词元和句子取平均。虚线表示一半。",
    "reading.corpus.heads_title": "超过一半注意力落在前一个词元、后一个词元、[SEP] 或 [CLS] 上的头",
    "reading.corpus.col.category": "落在",
    "reading.corpus.col.measure": "度量",
    "reading.corpus.col.heads": "头 (占比)",
    "reading.corpus.none": "无",
    "reading.corpus.many": "共 {count} 个头;最大的几个:{top}",
    "reading.corpus.head_item": "第 {layer} 层第 {head} 个头 ({share:.1%})",
    "reading.corpus.published": "与已发表的 BERT-base 发现并列",
    "reading.corpus.col.finding": "Clark 等 (2019),BERT-base",
    "reading.corpus.col.where": "论文中的位置",
    "reading.corpus.col.minilm": "这里的 MiniLM (权重 | 值加权范数)",
    "reading.corpus.note": "all-MiniLM-L6-v2 是从更大的模型蒸馏出来的 6 层模型 (每层 12 个头,每"
    "个头 32 维),之后又在句子对上做了对比学习微调;而论文中的 BERT-base 是用掩码语言建模训练的;"
    "论文平均的是 1000 个最长 128 个词元、形式为 [CLS] A [SEP] B [SEP] 的维基百科片段。数字会不"
    "同,能比较的只是模式的种类。论文的层从 1 开始编号,本页从 0 开始。",
    "reading.corpus.cite": "参考文献:{citation}",
    "reading.minilm.sep_layers": "每层 [SEP] 占比的最大值:第 {lw} 层,{w:.1%} | 第 {ln} 层,{n:.1%}。"
    "MiniLM 转而停靠在 [CLS] 上:第 {cw} 层,{cwv:.1%} | 第 {cn} 层,{cnv:.1%}",
    "reading.minilm.heads": "{w} | {n}",
    "reading.minilm.self": "落在自身上的平均占比:{w:.1%} | {n:.1%}",
    "reading.minilm.profile": "最关注 [CLS]:第 {cls} 层;最关注 [SEP]:第 {sep} 层;最关注标点:第 {punct} 层 (按权重)",
    "reading.minilm.not_measured": "这里没有测量 (需要单独统计 [SEP] 所在的行)",
    "reading.clark.0": "在 BERT 的第 6-10 层,超过一半的注意力集中在 [SEP] 上。",
    "reading.clark.1": "有四个注意力头 (在第 2、4、7、8 层) 平均把超过 50% 的注意力放在前一个词元上。",
    "reading.clark.2": "有五个注意力头 (在第 1、2、2、3、6 层) 把超过 50% 的注意力放在后一个词元上。",
    "reading.clark.3": "大多数头很少关注当前词元本身。",
    "reading.clark.4": "浅层的头关注 [CLS],中间层的头关注 [SEP],深层的头关注句号和逗号。",
    "reading.clark.5": "处理 [SEP] 的头几乎全部 (超过 90%) 关注它自己和另一个 [SEP] 词元。",
}
