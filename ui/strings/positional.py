"""The Positional encoding page."""

EN = {
    "positional.shuffle_capped": "seven charts of T x T cells (three per setting and the permutation) would not stay quick or readable for a longer text.",
    "positional.title": "Positional encoding",
    "positional.intro": "Self-attention compares every token with every other token, but nothing in "
    "`softmax(QKᵀ/√d_k)V` says which token came first: without extra information the model "
    "would read *I want to live in Europe* and *Europe in live to want I* as the same bag of "
    "words. The Transformer adds a **positional encoding** to each word embedding: a vector "
    "of sines and cosines that depends only on the position.",
    "positional.symbols": "- **pos**: the position of the token in the sentence (0, 1, 2, "
    "…)\n- **i**: the index of a sine/cosine pair; dimension 2i holds the sine, 2i+1 the "
    "cosine\n- **d_model**: the size of the embedding; the encoding has the same size, so it "
    "can be added to it\n- **10000**: the base; pair i has frequency ω_i = "
    "1/10000^(2i/d_model) and wavelength 2π·10000^(2i/d_model), from 2π (pair 0, fast) to "
    "2π·10000^((d_model−2)/d_model) (the last pair, slow: {longest} positions for d_model = "
    "{d})",
    "positional.d_model": "d_model of this table (its own, not the sidebar's)",
    "positional.d_model_help": "The sinusoidal table's own size, to explore the encoding at any "
    "width; the sidebar's d_model sets the model of the views on your sentence. Even values "
    "only, so that every sine has its cosine partner.",
    "positional.n_positions": "Number of positions",
    "positional.range": "Every value of this {n} × {d} table lies in [-1, 1]: the smallest is "
    "{lo:.6f}, the largest {hi:.6f}. Each sine-cosine pair has norm 1, so ‖PE‖ = {pe} at every "
    "position, however long the sentence. Whether that swamps the word embedding depends on "
    "the embedding's scale: this app's embeddings have ‖E‖ = {e}, so ‖PE‖ ≈ {ratio} ‖E‖; "
    "Vaswani et al. 2017 (§3.4) multiply theirs by √d_model.",
    "positional.view.encoding": "The sinusoidal table",
    "positional.view.sentence": "Shuffle your sentence",
    "positional.view.rope": "RoPE",
    "positional.view.alibi": "ALiBi",
    "positional.curves": "Sine and cosine against position",
    "positional.dims": "Dimensions to plot",
    "positional.dims_help": "Up to {n} dimensions. Low dimensions oscillate fast, high ones slowly.",
    "positional.dim_option": "dim {d} · {fn} · λ = {wl}",
    "positional.position": "position",
    "positional.value": "value",
    "positional.curves_caption": "Dimension {fast} repeats every {wl_fast} positions, dimension "
    "{slow} every {wl_slow}: like the hands of a clock, fast dimensions tell nearby "
    "positions apart and slow ones tell far-apart positions apart.",
    "positional.no_dims": "Choose at least one dimension to plot.",
    "positional.heatmap": "The whole table: positions × dimensions",
    "positional.heatmap_caption": "Row = one position's encoding vector (what is added to that "
    "token's embedding); column = one dimension across positions. Red is +1, blue is -1; "
    "hover for the exact value.",
    "positional.dimension": "dimension",
    "positional.wavelengths": "Wavelength of each dimension pair",
    "positional.wavelength": "wavelength λ_i",
    "positional.pair": "pair i (dimensions 2i, 2i+1)",
    "positional.wavelength_axis": "wavelength (positions, log scale)",
    "positional.positions_shown": "positions shown",
    "positional.wavelength_caption": "The wavelengths grow geometrically, from λ_0 = {shortest:.4f} "
    "to λ_{last} = {longest} positions. {n_long} of the {n_pairs} pairs have a "
    "wavelength longer than the {n} positions shown: they do not complete one cycle here, so "
    "together the pairs give every position a distinct vector.",
    "positional.similarity": "PE·PEᵀ: reading relative positions",
    "positional.similarity_intro": "The dot product of two encodings is a sum over the pairs, "
    "and each pair's sine and cosine combine into the cosine of the difference. So PE(p)·PE(q) "
    "depends only on |p − q|: it is the same k tokens back as k tokens ahead, and cannot tell "
    "them apart. What lets a query learn to look k tokens back from anywhere is that PE(p + k) "
    "is a fixed linear map of PE(p), a rotation of each pair by k·ω_i, which W_Q and W_K can "
    "use (Vaswani et al. 2017, §3.5).",
    "positional.position_p": "position p",
    "positional.position_q": "position q",
    "positional.anchor": "Compare with the profile of position",
    "positional.anchor_help": "The similarity of this position to every other one, plotted against "
    "the offset, lies on top of position 0's profile.",
    "positional.profile": "PE({p})·PE({p}+k)",
    "positional.closed_form": "Σ cos(k·ω_i) (closed form)",
    "positional.offset": "offset k = q − p",
    "positional.similarity_check": "Checked on this table: any two entries with the same offset "
    "differ by at most {spread}, and PE·PEᵀ differs from the closed form "
    "Σ cos((p−q)·ω_i) by at most {dev} (float32 rounding of the table). On the "
    "diagonal (offset 0) every position has PE(p)·PE(p) = {peak}, that is d_model/2 "
    "with d_model = {d}.",
    "positional.layouts": "Interleaved or concatenated?",
    "positional.layouts_intro": "The paper's formula interleaves: sine at even dimensions, cosine at "
    "odd ones. Many codebases concatenate instead: all the sines, then all the cosines. The "
    "two tables hold exactly the same numbers; only the order of the dimensions differs.",
    "positional.interleaved": "interleaved (sin at 2i, cos at 2i+1)",
    "positional.concatenated": "concatenated (all sin, then all cos)",
    "positional.layouts_perm": "They differ by one fixed permutation of the {d} dimensions: "
    "interleaved = concatenated[:, perm] with perm = [{perm}]. Largest difference after "
    "reordering: {diff}. Because the embeddings and the weights after them are learned, "
    "a model trained with either layout can learn the same function: the permutation is "
    "absorbed into what it learns.",
    "positional.shuffle": "On your sentence: shuffle the words",
    "positional.shuffle_intro": "Take the sentence from the sidebar and shuffle its tokens. Without "
    "positional encoding each token's vector is the same wherever it stands, so attention "
    "only moves rows and columns: A′ = P A Pᵀ, where P is the permutation matrix. With "
    "positional encoding the same word gets a different vector at its new position, and the "
    "pattern itself changes. The same layer (sidebar settings) is used for both.",
    "positional.shuffle_need_two": "Shuffling needs at least two tokens: type a longer sentence in the "
    "sidebar.",
    "positional.shuffle_causal": "This section uses no mask: a causal mask is tied to positions, so "
    "it would break the permutation property even without positional encoding.",
    "positional.shuffle_seed": "Shuffle seed",
    "positional.reshuffle": "Shuffle again",
    "positional.head": "Head",
    "positional.head_option": "head {h}",
    "positional.perm": "Permutation: shuffled position i holds the token from original position "
    "perm[i], perm = [{perm}].",
    "positional.perm_row": "{i} ← {j}: {tok}",
    "positional.original_position": "original position (token)",
    "positional.shuffled_position": "shuffled position (token)",
    "positional.panel_a": "A: original order",
    "positional.panel_shuffled": "A′: shuffled sentence",
    "positional.panel_pap": "P A Pᵀ: A with rows and columns moved",
    "positional.without_pe": "Without positional encoding",
    "positional.with_pe": "With positional encoding",
    "positional.weight": "weight",
    "positional.key": "key",
    "positional.query": "query",
    "positional.verdict_same": "Only permuted: the largest difference between A′ and P A Pᵀ over "
    "all {heads} heads is {diff} (below {tol}: float rounding). The middle and "
    "right heatmaps are the same matrix.",
    "positional.verdict_changed": "The pattern changed: A′ differs from P A Pᵀ by up to {diff} "
    "(over all {heads} heads, far above the {tol} of float rounding). Position now "
    "matters to attention.",
    "positional.rope": "RoPE: rotating queries and keys instead of adding a vector",
    "positional.rope_intro": "LLaMA, Mistral and most of today's language models do not add a "
    "positional encoding to the embeddings. **Rotary position embedding** (RoPE; Su et al. "
    "2021) turns each pair of query and key dimensions by an angle proportional to the "
    "position, at frequencies ω_i = base^(−2i/d_k): over the head size d_k, not d_model, with "
    "a base that varies by model (10,000 here and in Su et al.; 500,000 in Llama 3). A query "
    "at position m and a key at position n then meet at the angle (m − n)·ω_i: the score "
    "depends on the offset m − n only. Meta's LLaMA code pairs adjacent dimensions (2i with 2i "
    "+ 1); here the pairs follow the rotate-half layout of GPT-NeoX and Hugging Face "
    "(dimension i with i + d_k/2), and Hugging Face permutes W_Q and W_K when it converts "
    "LLaMA's weights, so both give the same scores.",
    "positional.rope_odd": "RoPE turns pairs of dimensions, so it needs an even d_k; the sidebar "
    "gives d_k = {d_k}. Choose other d_model or heads to see it.",
    "positional.rope_pair": "Pair i",
    "positional.rope_pair_help": "Pair i turns dimensions i and i + d_k/2 (d_k = {d_k}); low pairs "
    "turn fast, high pairs slowly.",
    "positional.rope_shift": "Shift every position by s",
    "positional.rope_angle": "angle",
    "positional.rope_caption": "Pair {i} (dimensions {i} and {j}) turns by ω = {w} radians per "
    "token: a full turn every {wl} tokens. Each token of your sentence is one point; the angle "
    "between two points is all that a query and a key see of their positions.",
    "positional.rope_shift_result": "On your sentence ({n} tokens, {heads} heads of the sidebar's "
    "layer, without added PE): moving every token s = {s} positions further changes the RoPE "
    "scores by at most {rope} (float rounding; the scores reach {scale}). Adding the sinusoidal "
    "encoding to the same queries and keys instead, the same shift changes the scores by up to "
    "{sin}: q·PE(n) and PE(m)·k depend on where the tokens are, not only on their distance.",
    "positional.alibi": "ALiBi: a penalty that grows with distance",
    "positional.alibi_intro": "**ALiBi** (attention with linear biases; Press et al. 2022) "
    "adds no encoding at all: each head subtracts m_h · (i − j) from the score of query i on "
    "key j, a penalty that grows linearly with the distance, at a different rate m_h per head. "
    "Press et al. (2022, abstract) report that a 1.3B-parameter model trained on 1,024 tokens "
    "with ALiBi, evaluated on 2,048-token inputs, reaches the perplexity of a sinusoidal model "
    "trained on 2,048 tokens, while training 11% faster, and that ALiBi keeps working on texts "
    "longer than those it was trained on. BLOOM and MPT use it.",
    "positional.alibi_slopes": "The slopes of your {nh} heads (2^(−8h/H) for a power of two H; "
    "BLOOM's rule otherwise): {slopes}.",
    "positional.alibi_head": "head {h} · m = {m}",
    "positional.alibi_bias": "bias",
    "positional.alibi_bias_caption": "Each head's bias −m_h · (i − j) on and below the diagonal "
    "(above it the causal mask hides the keys). Steep heads look near, gentle heads far.",
    "positional.alibi_heads_caption": "Your sentence's {nh} heads (the sidebar's layer without "
    "added PE, causal) with the bias added to their scaled scores: the bias is the only "
    "position signal left, and it pulls the steep heads' weight towards the nearest tokens.",
}

ZH = {
    "positional.shuffle_capped": "更长的文本需要七张 T x T 的图(每种设置三张,外加置换矩阵),既不快也难以阅读。",
    "positional.title": "位置编码",
    "positional.intro": "自注意力把每个词元与所有其他词元比较,但 `softmax(QKᵀ/√d_k)V` 中没有任何东西"
    "说明哪个词元在前:没有额外信息时,模型会把 *I want to live in Europe* 和 "
    "*Europe in live to want I* 当作同一袋词。Transformer 给每个词向量加上**位置编码**:"
    "一个只取决于位置的正弦、余弦向量。",
    "positional.symbols": "- **pos**:词元在句子中的位置 (0, 1, 2, …)\n- **i**:正弦/余弦对的序号"
    ";第 2i 维是正弦,第 2i+1 维是余弦\n- **d_model**:词向量的维度;位置编码维度相同,所以可以直接"
    "相加\n- **10000**:底数;第 i 对的频率是 ω_i = 1/10000^(2i/d_model),波长是 2π·"
    "10000^(2i/d_model),从 2π (第 0 对,快) 到 2π·10000^((d_model−2)/d_model) (最后一对,慢"
    ":d_model = {d} 时为 {longest} 个位置)",
    "positional.d_model": "本表的 d_model (它自己的,不是侧边栏的)",
    "positional.d_model_help": "正弦表自己的大小,用来在任意宽度下探索编码;侧边栏的 d_model 设定句子视图中的模型。"
    "只能取偶数,这样每个正弦都有对应的余弦。",
    "positional.n_positions": "位置个数",
    "positional.range": "这张 {n} × {d} 的表中每个值都在 [-1, 1] 之内:最小值 {lo:.6f},最大值 "
    "{hi:.6f}。每一对正弦和余弦的范数为 1,所以无论句子多长,每个位置的 ‖PE‖ 都是 {pe}。它是否"
    "淹没词向量取决于词向量的尺度:本应用的词向量 ‖E‖ = {e},所以 ‖PE‖ ≈ {ratio} ‖E‖"
    ";Vaswani 等 2017 (§3.4) 把词向量乘以 √d_model。",
    "positional.view.encoding": "正弦位置表",
    "positional.view.sentence": "打乱你的句子",
    "positional.view.rope": "RoPE",
    "positional.view.alibi": "ALiBi",
    "positional.curves": "正弦、余弦随位置的变化",
    "positional.dims": "要绘制的维度",
    "positional.dims_help": "最多 {n} 个维度。低维振荡快,高维振荡慢。",
    "positional.dim_option": "第 {d} 维 · {fn} · λ = {wl}",
    "positional.position": "位置",
    "positional.value": "值",
    "positional.curves_caption": "第 {fast} 维每 {wl_fast} 个位置重复一次,第 {slow} 维每 "
    "{wl_slow} 个位置重复一次:就像钟表的指针,快的维度区分相邻位置,慢的维度区分相距很远"
    "的位置。",
    "positional.no_dims": "请至少选择一个维度。",
    "positional.heatmap": "整张表:位置 × 维度",
    "positional.heatmap_caption": "每一行是一个位置的编码向量 (加到该词元的词向量上);每一列是一个维度"
    "在各位置上的值。红色为 +1,蓝色为 -1;悬停可查看精确值。",
    "positional.dimension": "维度",
    "positional.wavelengths": "每个维度对的波长",
    "positional.wavelength": "波长 λ_i",
    "positional.pair": "第 i 对 (第 2i、2i+1 维)",
    "positional.wavelength_axis": "波长 (位置数,对数刻度)",
    "positional.positions_shown": "显示的位置数",
    "positional.wavelength_caption": "波长按几何级数增长,从 λ_0 = {shortest:.4f} 到 "
    "λ_{last} = {longest} 个位置。{n_pairs} 对中有 {n_long} 对的波长超过所显示的 {n} 个"
    "位置:它们在这里连一个周期都走不完,因此所有维度对合在一起,给每个位置一个不同的向量。",
    "positional.similarity": "PE·PEᵀ:读出相对位置",
    "positional.similarity_intro": "两个位置编码的点积是各维度对之和,而每一对的正弦与余弦合起来"
    "正好是位置差的余弦。所以 PE(p)·PE(q) 只取决于 |p − q|:往回 k 个词元与往前 k 个词元的值相"
    "同,无法区分。让查询能从任何地方学会“往回看 k 个词元”的是另一个性质:PE(p + k) 是 PE(p) 的"
    "一个固定线性映射 (每一对旋转 k·ω_i),W_Q 和 W_K 可以利用它 (Vaswani 等 2017,§3.5)。",
    "positional.position_p": "位置 p",
    "positional.position_q": "位置 q",
    "positional.anchor": "与该位置的曲线比较",
    "positional.anchor_help": "该位置与其他所有位置的相似度,按偏移绘制,与位置 0 的曲线完全重合。",
    "positional.profile": "PE({p})·PE({p}+k)",
    "positional.closed_form": "Σ cos(k·ω_i) (解析式)",
    "positional.offset": "偏移 k = q − p",
    "positional.similarity_check": "在这张表上验证:偏移相同的任意两个元素最多相差 {spread},"
    "PE·PEᵀ 与解析式 Σ cos((p−q)·ω_i) 最多相差 {dev} (表中 float32 的舍入误差)。"
    "对角线上 (偏移为 0) 每个位置都有 PE(p)·PE(p) = {peak},即 d_model/2,"
    "其中 d_model = {d}。",
    "positional.layouts": "交错排列还是拼接排列?",
    "positional.layouts_intro": "论文的公式是交错的:偶数维是正弦,奇数维是余弦。许多代码改为拼接:"
    "先放全部正弦,再放全部余弦。两张表中的数完全相同,只是维度的顺序不同。",
    "positional.interleaved": "交错 (第 2i 维 sin,第 2i+1 维 cos)",
    "positional.concatenated": "拼接 (先全部 sin,再全部 cos)",
    "positional.layouts_perm": "两者相差 {d} 个维度的一个固定置换:interleaved = "
    "concatenated[:, perm],其中 perm = [{perm}]。重新排序后的最大差值:{diff}。"
    "由于词向量和后面各层的权重都是学习得到的,用任一种排列训练的模型都能学到同样的函数:"
    "这个置换被吸收进学到的参数里。",
    "positional.shuffle": "在你的句子上:打乱词序",
    "positional.shuffle_intro": "取侧边栏中的句子,打乱它的词元。没有位置编码时,每个词元的向量"
    "不论放在哪里都一样,所以注意力只是移动行和列:A′ = P A Pᵀ,其中 P 是置换矩阵。"
    "有位置编码时,同一个词在新位置上得到不同的向量,注意力图案本身就变了。两种情况使用同一"
    "层 (侧边栏的设置)。",
    "positional.shuffle_need_two": "打乱词序至少需要两个词元:请在侧边栏输入更长的句子。",
    "positional.shuffle_causal": "本节不使用掩码:因果掩码与位置绑定,即使没有位置编码也会破坏置换性质。",
    "positional.shuffle_seed": "打乱的随机种子",
    "positional.reshuffle": "再打乱一次",
    "positional.head": "头",
    "positional.head_option": "头 {h}",
    "positional.perm": "置换:打乱后第 i 个位置放的是原来第 perm[i] 个位置的词元,perm = [{perm}]。",
    "positional.perm_row": "{i} ← {j}:{tok}",
    "positional.original_position": "原位置 (词元)",
    "positional.shuffled_position": "打乱后的位置 (词元)",
    "positional.panel_a": "A:原始顺序",
    "positional.panel_shuffled": "A′:打乱后的句子",
    "positional.panel_pap": "P A Pᵀ:移动了行和列的 A",
    "positional.without_pe": "没有位置编码",
    "positional.with_pe": "加入位置编码",
    "positional.weight": "权重",
    "positional.key": "键",
    "positional.query": "查询",
    "positional.verdict_same": "只是置换:在全部 {heads} 个头上,A′ 与 P A Pᵀ 的最大差值为 "
    "{diff} (低于 {tol}:浮点舍入)。中间和右边的热力图是同一个矩阵。",
    "positional.verdict_changed": "图案变了:A′ 与 P A Pᵀ 最多相差 {diff} (全部 {heads} 个头,"
    "远高于浮点舍入的 {tol})。位置现在影响注意力。",
    "positional.rope": "RoPE:旋转查询和键,而不是加上一个向量",
    "positional.rope_intro": "LLaMA、Mistral 以及当今多数语言模型都不在嵌入上加位置编码。**旋转"
    "位置编码**(RoPE;Su 等,2021)把查询和键的每一对维度按与位置成正比的角度旋转,频率 ω_i = "
    "base^(−2i/d_k):用的是头的维度 d_k,而不是 d_model;底数因模型而异 (这里和 Su 等为 "
    "10,000;Llama 3 为 500,000)。位置 m 的查询与位置 n 的键相遇时的夹角是 (m − n)·ω_i:分数只"
    "取决于偏移 m − n。Meta 的 LLaMA 代码把相邻维度配对 (2i 与 2i + 1);这里的配对采用 "
    "GPT-NeoX 和 Hugging Face 的“旋转一半”布局 (维度 i 与 i + d_k/2),Hugging Face 在转换 "
    "LLaMA 权重时会重排 W_Q 和 W_K,所以两者给出相同的分数。",
    "positional.rope_odd": "RoPE 旋转成对的维度,因此需要偶数的 d_k;侧边栏给出的是 d_k = {d_k}。"
    "请选择其他 d_model 或头数。",
    "positional.rope_pair": "维度对 i",
    "positional.rope_pair_help": "第 i 对旋转维度 i 和 i + d_k/2(d_k = {d_k});低的维度对转得快,高的转得慢。",
    "positional.rope_shift": "所有位置平移 s",
    "positional.rope_angle": "角度",
    "positional.rope_caption": "第 {i} 对(维度 {i} 和 {j})每个词元转 ω = {w} 弧度:每 {wl} 个词元转一整圈。"
    "句子中的每个词元是一个点;查询和键对彼此位置的全部了解,就是两点之间的夹角。",
    "positional.rope_shift_result": "在你的句子上({n} 个词元,侧边栏层的 {heads} 个头,不加位置编码):"
    "把每个词元都往后移 s = {s} 个位置,RoPE 分数最多变化 {rope}(浮点舍入;分数最大为 {scale})。"
    "如果改为把正弦编码加到同样的查询和键上,同样的平移会让分数最多变化 {sin}:q·PE(n) 和 PE(m)·k "
    "取决于词元所在的位置,而不只是它们的距离。",
    "positional.alibi": "ALiBi:随距离增长的惩罚",
    "positional.alibi_intro": "**ALiBi**(线性偏置注意力;Press 等,2022)完全不加编码:每个头从查询"
    " i 对键 j 的分数中减去 m_h · (i − j),惩罚随距离线性增长,每个头的斜率 m_h 不同。Press 等 "
    "(2022,摘要) 报告:一个 13 亿参数的模型用 ALiBi 在 1,024 个词元上训练,在 2,048 个词元的输入"
    "上评估时,困惑度与在 2,048 个词元上训练的正弦编码模型相当,而训练快 11%;并且 ALiBi 在比训练"
    "时更长的文本上依然有效。BLOOM 和 MPT 使用了它。",
    "positional.alibi_slopes": "你的 {nh} 个头的斜率(H 为 2 的幂时为 2^(−8h/H),否则用 BLOOM 的规则):{slopes}。",
    "positional.alibi_head": "头 {h} · m = {m}",
    "positional.alibi_bias": "偏置",
    "positional.alibi_bias_caption": "每个头在对角线及其下方的偏置 −m_h · (i − j)(对角线上方的键被因果掩码"
    "遮住)。斜率大的头看近处,斜率小的头看远处。",
    "positional.alibi_heads_caption": "你的句子的 {nh} 个头(侧边栏的层,不加位置编码,因果)在缩放分数上"
    "加上偏置:偏置是剩下的唯一位置信号,它把斜率大的头的权重拉向最近的词元。",
}
