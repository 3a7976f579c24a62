"""The Scaling lab (1/sqrt(d_k)) page."""

EN = {
    "scaling.sentence_capped": "the temperature curves recompute the softmax and its Jacobian for every row of every head at 22 temperatures, which takes too long for a longer text.",
    "scaling.title": "Scaling lab: why divide by √d_k?",
    "scaling.intro": "Attention scores are dot products q·k of d_k-dimensional vectors. If the "
    "components of q and k are independent with mean 0 and variance 1, q·k has mean 0 and "
    "variance d_k (Vaswani et al. 2017, §3.2.1, footnote 4); dividing the scores (the "
    "softmax's logits, not the weights) by √d_k brings their standard deviation back to 1. "
    "Large scores would push the softmax into regions with extremely small gradients. This "
    "page measures both: first on random vectors, then on the softmax that follows, then on "
    "your sentence.",
    "scaling.variance_why": "Each product q_i·k_i of independent components with mean 0 and "
    "variance 1 has variance 1, and the d_k products are independent, so their variances "
    "add up. This holds for any such distribution, not only the normal one: try the others.",
    "scaling.distribution": "Distribution of the components of q and k (mean 0, variance 1)",
    "scaling.dist.normal": "Normal N(0, 1)",
    "scaling.dist.uniform": "Uniform U(−√3, √3)",
    "scaling.dist.rademacher": "Random signs ±1",
    "scaling.samples": "Samples (pairs q, k per d_k)",
    "scaling.seed_note": "Random draws use the seed from the sidebar ({seed}); every number "
    "below is measured from them now.",
    "scaling.view.spread": "How far scores spread",
    "scaling.view.saturation": "Softmax saturates",
    "scaling.view.sentence": "On your sentence",
    "scaling.std_title": "1. The spread of q·k grows like √d_k",
    "scaling.std_measured": "measured std(q·k)",
    "scaling.std_theory": "theory √d_k",
    "scaling.std_scaled": "measured std(q·k / √d_k)",
    "scaling.std_scaled_theory": "theory 1",
    "scaling.std_axis": "standard deviation (log scale)",
    "scaling.std_result": "With {n:,} samples per d_k: at d_k = {d_k} the measured std of "
    "q·k is **{std:.3f}** against √d_k = {theory:.3f} ({err:.2f}% off). The largest "
    "deviation from √d_k over all d_k is {worst:.2f}% (at d_k = {worst_d_k}). After "
    "dividing by √d_k the std stays between **{lo:.3f}** and **{hi:.3f}** for every d_k "
    "(at d_k = {d_k}: {scaled:.3f}).",
    "scaling.hist_d_k": "d_k of the score histograms below",
    "scaling.hist_unscaled": "q·k (unscaled)",
    "scaling.hist_scaled": "q·k / √d_k (scaled)",
    "scaling.score": "score",
    "scaling.density": "density",
    "scaling.hist_caption": "At d_k = {d_k} the sampled unscaled scores range from {lo:.2f} "
    "to {hi:.2f}; scaled, from {slo:.2f} to {shi:.2f}. Two scores one std apart "
    "({gap:.2f} unscaled) get softmax weights in the ratio e^{gap:.2f} = {odds}; "
    "scaled ({sgap:.2f} apart) only {sodds}.",
    "scaling.sat_title": "2. Unscaled, the softmax saturates",
    "scaling.sat_intro": "Each query scores T random keys and a softmax turns the T scores "
    "into weights. As d_k grows the unscaled scores spread out, one score wins by a wide "
    "margin, and the softmax becomes one-hot: the largest weight goes to 1, the entropy to 0, "
    "and the softmax Jacobian J (how the weights move when the scores move; every gradient "
    "that reaches the scores passes through it) goes to 0. Scaled scores keep the same spread "
    "for every d_k.",
    "scaling.n_keys": "Keys per query T",
    "scaling.n_keys_help": "The length of the sequence each query attends over.",
    "scaling.max_weight": "mean max weight",
    "scaling.entropy": "mean entropy (nats)",
    "scaling.jacobian": "mean Frobenius norm ‖J‖ of the softmax Jacobian",
    "scaling.unscaled": "unscaled softmax(q·k)",
    "scaling.scaled": "scaled softmax(q·k/√d_k)",
    "scaling.uniform": "uniform weights 1/{t}",
    "scaling.sat_result": "Measured with T = {t} keys, {rows} queries per d_k. At d_k = "
    "{d_hi}, unscaled: mean max weight **{mw_u:.3f}**, entropy **{en_u:.3f}** nats, ‖J‖ = "
    "**{j_u}**; scaled: {mw_s:.3f}, {en_s:.3f} nats, ‖J‖ = {j_s}. ‖J‖ ratio, scaled to "
    "unscaled: {ratio}×. (Uniform weights: max weight {u_mw:.4f}, entropy {u_en:.3f} nats; at "
    "d_k = {d_lo} the unscaled ‖J‖ was {j_0}.)",
    "scaling.sentence_title": "3. On your sentence",
    "scaling.additive_note": "The sidebar selects additive scores, which are not divided by "
    "√d_k; this section uses dot-product scores with the same weights and seed.",
    "scaling.head": "Head",
    "scaling.head_option": "head {h}",
    "scaling.tau_sqrt": "τ = √d_k (d_k = {d_k})",
    "scaling.tau": "Temperature τ on the unscaled scores",
    "scaling.tau_fixed": "Fixed at √d_k = √{d_k} = {tau} while the toggle is on; turn it off "
    "to choose τ.",
    "scaling.pair_intro": "The same layer and sentence (sidebar settings, d_k = {d_k}), with "
    "the scores divided by √d_k = {sqrt} (left) and not divided (right), on one colour "
    "scale.",
    "scaling.pair_scaled": "scaled: softmax(QKᵀ/√d_k)",
    "scaling.pair_unscaled": "unscaled: softmax(QKᵀ)",
    "scaling.weight": "weight",
    "scaling.key": "key",
    "scaling.query": "query",
    "scaling.pair_result": "Over all heads and {rows} rows: the raw scores QKᵀ have std "
    "**{std:.3f}**, the scaled ones {sstd:.3f}. Mean max weight: unscaled **{mw_u:.3f}**, "
    "scaled {mw_s:.3f}. Mean entropy: unscaled **{en_u:.3f}**, scaled {en_s:.3f} nats. "
    "Mean ‖J‖: unscaled **{j_u}**, scaled {j_s}.",
    "scaling.temp_title": "√d_k is a softmax temperature",
    "scaling.temp_heatmap": "softmax(QKᵀ/τ), τ = {tau}",
    "scaling.temp_result": "At τ = {tau}: mean max weight {mw:.3f}, entropy {en:.3f} "
    "nats. Largest difference from the scaled weights softmax(QKᵀ/√d_k), with "
    "√d_k = {sqrt} for d_k = {d_k}: **{diff}**. Dividing by √d_k is the same "
    "as a softmax at temperature τ = √d_k: a low τ sharpens the weights, a high τ "
    "flattens them towards uniform.",
    "scaling.mark_unscaled": "τ = 1 (unscaled)",
    "scaling.mark_scaled": "τ = √d_k (scaled, d_k = {d_k})",
    "scaling.mark_current": "your τ = {tau}",
    "scaling.temp_curve": "softmax(QKᵀ/τ) on your sentence",
    "scaling.tau_axis": "temperature τ (log scale)",
    "scaling.temp_caption": "Each curve is computed on your sentence for every temperature "
    "of the slider; the markers are the unscaled weights, the scaled weights and your τ.",
}

ZH = {
    "scaling.sentence_capped": "温度曲线要在 22 个温度下为每个头的每一行重新计算 softmax 及其雅可比矩阵,文本更长时耗时过久。",
    "scaling.title": "缩放实验:为什么除以 √d_k?",
    "scaling.intro": "注意力得分是 d_k 维向量的点积 q·k。若 q 和 k 的各分量独立、均值为 0、方"
    "差为 1,则 q·k 的均值为 0、方差为 d_k (Vaswani 等 2017,§3.2.1,脚注 4);把得分 (softmax 的 "
    "logits,而不是权重) 除以 √d_k,标准差就回到 1。得分过大会把 softmax 推入梯度极小的区域。本"
    "页检验这两点:先在随机向量上,再在其后的 softmax 上,最后在你的句子上。",
    "scaling.variance_why": "各分量独立、均值为 0、方差为 1 时,每个乘积 q_i·k_i 的方差为 1,"
    "d_k 个乘积相互独立,方差可以相加。这对任何这样的分布都成立,不只是正态分布:试试其他"
    "分布。",
    "scaling.distribution": "q 和 k 各分量的分布 (均值 0,方差 1)",
    "scaling.dist.normal": "正态分布 N(0, 1)",
    "scaling.dist.uniform": "均匀分布 U(−√3, √3)",
    "scaling.dist.rademacher": "随机符号 ±1",
    "scaling.samples": "样本数 (每个 d_k 的 q、k 对数)",
    "scaling.seed_note": "随机抽样使用侧边栏的种子 ({seed});下面的每个数都是现在从这些样本测得的。",
    "scaling.view.spread": "分数的分散程度",
    "scaling.view.saturation": "softmax 饱和",
    "scaling.view.sentence": "在你的句子上",
    "scaling.std_title": "1. q·k 的离散程度按 √d_k 增长",
    "scaling.std_measured": "实测 std(q·k)",
    "scaling.std_theory": "理论值 √d_k",
    "scaling.std_scaled": "实测 std(q·k / √d_k)",
    "scaling.std_scaled_theory": "理论值 1",
    "scaling.std_axis": "标准差 (对数刻度)",
    "scaling.std_result": "每个 d_k 取 {n:,} 个样本:d_k = {d_k} 时 q·k 的实测标准差为 "
    "**{std:.3f}**,而 √d_k = {theory:.3f} (相差 {err:.2f}%)。在所有 d_k 上与 √d_k 的"
    "最大偏差为 {worst:.2f}% (在 d_k = {worst_d_k})。除以 √d_k 之后,每个 d_k 的标准差"
    "都在 **{lo:.3f}** 和 **{hi:.3f}** 之间 (d_k = {d_k} 时为 {scaled:.3f})。",
    "scaling.hist_d_k": "下面得分直方图的 d_k",
    "scaling.hist_unscaled": "q·k (未缩放)",
    "scaling.hist_scaled": "q·k / √d_k (缩放后)",
    "scaling.score": "得分",
    "scaling.density": "密度",
    "scaling.hist_caption": "d_k = {d_k} 时,抽样得到的未缩放得分从 {lo:.2f} 到 {hi:.2f};"
    "缩放后从 {slo:.2f} 到 {shi:.2f}。相差一个标准差的两个得分 (未缩放时相差 {gap:.2f}),"
    "经过 softmax 后权重之比为 e^{gap:.2f} = {odds};缩放后 (相差 {sgap:.2f}) 只有 "
    "{sodds}。",
    "scaling.sat_title": "2. 不缩放时 softmax 会饱和",
    "scaling.sat_intro": "每个查询对 T 个随机键打分,softmax 把 T 个得分变成权重。d_k 越大,未缩"
    "放的得分越分散,一个得分遥遥领先,softmax 变成独热:最大权重趋于 1,熵趋于 0,softmax 的雅可比"
    "矩阵 J (得分变化时权重如何变化;传到得分的每个梯度都要经过它) 趋于 0。缩放后的得分对每个 "
    "d_k 都保持相同的离散程度。",
    "scaling.n_keys": "每个查询的键数 T",
    "scaling.n_keys_help": "每个查询所关注的序列长度。",
    "scaling.max_weight": "平均最大权重",
    "scaling.entropy": "平均熵 (nats)",
    "scaling.jacobian": "softmax 雅可比矩阵的平均 Frobenius 范数 ‖J‖",
    "scaling.unscaled": "未缩放 softmax(q·k)",
    "scaling.scaled": "缩放 softmax(q·k/√d_k)",
    "scaling.uniform": "均匀权重 1/{t}",
    "scaling.sat_result": "用 T = {t} 个键、每个 d_k {rows} 个查询测得。d_k = {d_hi} 时,未缩放:"
    "平均最大权重 **{mw_u:.3f}**,熵 **{en_u:.3f}** nats,‖J‖ = **{j_u}**;缩放后"
    ":{mw_s:.3f},{en_s:.3f} nats,‖J‖ = {j_s}。‖J‖ 之比 (缩放后比未缩放):{ratio} 倍。(均匀权"
    "重:最大权重 {u_mw:.4f},熵 {u_en:.3f} nats;d_k = {d_lo} 时未缩放的 ‖J‖ 为 {j_0}。)",
    "scaling.sentence_title": "3. 在你的句子上",
    "scaling.additive_note": "侧边栏选择的是加性注意力得分,它不除以 √d_k;本节使用相同权重和"
    "种子的点积得分。",
    "scaling.head": "头",
    "scaling.head_option": "头 {h}",
    "scaling.tau_sqrt": "τ = √d_k (d_k = {d_k})",
    "scaling.tau": "作用于未缩放得分的温度 τ",
    "scaling.tau_fixed": "开关打开时固定为 √d_k = √{d_k} = {tau};关闭开关即可选择 τ。",
    "scaling.pair_intro": "同一层、同一个句子 (侧边栏设置,d_k = {d_k}):左边得分除以 "
    "√d_k = {sqrt},右边不除,两者使用同一个颜色刻度。",
    "scaling.pair_scaled": "缩放:softmax(QKᵀ/√d_k)",
    "scaling.pair_unscaled": "未缩放:softmax(QKᵀ)",
    "scaling.weight": "权重",
    "scaling.key": "键",
    "scaling.query": "查询",
    "scaling.pair_result": "在所有头、{rows} 行上:原始得分 QKᵀ 的标准差为 **{std:.3f}**,"
    "缩放后为 {sstd:.3f}。平均最大权重:未缩放 **{mw_u:.3f}**,缩放 {mw_s:.3f}。平均熵:"
    "未缩放 **{en_u:.3f}**,缩放 {en_s:.3f} nats。平均 ‖J‖:未缩放 **{j_u}**,"
    "缩放 {j_s}。",
    "scaling.temp_title": "√d_k 就是 softmax 的温度",
    "scaling.temp_heatmap": "softmax(QKᵀ/τ),τ = {tau}",
    "scaling.temp_result": "τ = {tau} 时:平均最大权重 {mw:.3f},熵 {en:.3f} nats。"
    "与缩放后的权重 softmax(QKᵀ/√d_k) (d_k = {d_k},√d_k = {sqrt}) 的最大差值:"
    "**{diff}**。除以 √d_k 等同于温度 τ = √d_k 的 softmax:τ 小则权重更尖锐,"
    "τ 大则权重趋于均匀。",
    "scaling.mark_unscaled": "τ = 1 (未缩放)",
    "scaling.mark_scaled": "τ = √d_k (缩放,d_k = {d_k})",
    "scaling.mark_current": "你的 τ = {tau}",
    "scaling.temp_curve": "你的句子上的 softmax(QKᵀ/τ)",
    "scaling.tau_axis": "温度 τ (对数刻度)",
    "scaling.temp_caption": "曲线是在你的句子上对滑块的每个温度计算出来的;图中的点分别是未缩放的"
    "权重、缩放后的权重和你选择的 τ。",
}
