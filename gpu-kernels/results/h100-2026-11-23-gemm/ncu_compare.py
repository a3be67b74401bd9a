# Nsight Compute CSVs + the model's JSON lines -> per spec: measured vs modelled smem wavefronts per instruction.
import csv, json, sys
def load(csvf, modelf):
    models = [json.loads(l) for l in open(modelf) if l.startswith("{")]
    rows = list(csv.reader(l for l in open(csvf) if l.startswith('"')))
    hdr, rows = rows[0], rows[1:]
    iid, iname, ival = hdr.index("ID"), hdr.index("Metric Name"), hdr.index("Metric Value")
    by = {}
    for r in rows:
        by.setdefault(int(r[iid]), {})[r[iname]] = float(r[ival].replace(",", ""))
    return models, [by[k] for k in sorted(by)]
args = sys.argv[1:]
for csvf, modelf in zip(args[0::2], args[1::2]):
    models, meas = load(csvf, modelf)
    for m, x in zip(models, meas):
        if m.get("out") == "fp32":
            i = x["smsp__sass_inst_executed_op_shared_st.sum"]; w = x["smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum"]
            print(f'{m["spec"]:26s} {m["b"]} fp32 epilogue st.shared.v2: {i:.0f} inst (model {m["model_sts_instructions"]}), '
                  f'{w:.0f} wavefronts (model {m["model_sts_wavefronts"]}): {w/i:.3f}/inst, model {m["model_sts_wavefronts"]/m["model_sts_instructions"]:.3f}')
            continue
        i = x["smsp__inst_executed_op_ldsm.sum"]; w = x["smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum"]
        li = x["smsp__sass_inst_executed_op_shared_ld.sum"]; lw = x["smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"]
        c = x["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"]
        print(f'{m["spec"]:26s} {m["b"]}: ldmatrix {i:.0f} executed (model {m["model_ldsm_instructions_executed"]}, '
              f'{m["model_ldsm_instructions"]} moving data), {w:.0f} wavefronts (model {m["model_ldsm_wavefronts"]}) = '
              f'{w/m["model_ldsm_instructions"]:.3f}/inst (model A {m["model_a_per_instruction"]}, B {m["model_b_per_instruction"]}); '
              f'epilogue lds {li:.0f} inst {lw:.0f} wf = {lw/li:.3f}/inst (model {m["model_epilogue_lds_wavefronts"]/m["model_epilogue_lds_instructions"]:.3f}); '
              f'l1tex ld conflicts {c:.0f}')
